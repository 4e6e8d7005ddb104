"""The glossary stage of a build: entries + lesson definitions → terms with their mentions.

Reads ``glossary/``, finds where lessons define terms, merges both into one term list, counts
every term's mentions per section in course order, and writes the glossary table, with the
facts the coverage report needs from build time (jargon candidates, lost anchors, glossary
conflicts). It also tells the Whoosh stage which terms each section mentions, so a search for
a term's alias finds sections that use another of its names.
"""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
import shutil
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from itertools import chain, groupby
from pathlib import Path, PurePosixPath

from .analysis import find_words
from .build_cache import BuildCache, fingerprint
from .candidates import find_candidates, sample
from .completions import Suggestion, patch_headings, patch_kind, write_completions
from .coverage_facts import (
    find_broken_anchors,
    glossary_conflicts,
    glossary_stubs,
    published_anchors,
)
from .definitions import clarity, find_definitions
from .glossary_source import read_glossary
from .glossary_table import (
    GLOSSARY_DB,
    CoverageFacts,
    Definition,
    SectionRow,
    TermRecord,
    lesson_ranges,
    patch_glossary_table,
    write_coverage_tables,
    write_glossary_table,
)
from .model import (
    Course,
    GlossaryEntry,
    LessonDefinition,
    Problem,
    defining_passage,
    opening_words,
)
from .slugs import AnchorRegistry
from .term_forms import term_anchor, term_key
from .term_lessons import patch_term_lessons, write_term_lessons
from .term_lookup import Glossary
from .term_matching import TermMatcher
from .term_verbs import (
    count_forms,
    defines_a_verb,
    everyday_words,
    forms_of,
    ing_words,
    marked_words,
    noun_words,
    nouns,
    participles,
)
from .whoosh_index import LESSON_ORDERS, Document, Terms


@dataclass
class GlossaryBuild:
    """The course's terms, found (``find_terms``) and not yet written (``write_glossary``)."""

    problems: tuple[Problem, ...] = ()
    records: list[TermRecord] = field(default_factory=list)
    entries: tuple[GlossaryEntry, ...] = ()
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    variants: dict[str, list[str]] = field(default_factory=dict)
    lessons: list[LessonMentions] = field(default_factory=list)
    """Every lesson's mentions, in course order."""
    defined: dict[tuple[str, str | None], tuple[tuple[str, str], ...]] = field(
        default_factory=dict)
    """The terms each section defines, by its lesson and anchor, A–Z, each with its defining
    sentence's ``model.opening_words``: a lesson's passages with no anchor (a plain-text
    lesson's paragraphs) share one, None, and of them the one holding those words defines it
    (``_defines``)."""
    nouns: frozenset[str] = frozenset()
    """The term words in -ing whose bare verb the lessons write as a noun only: no mention
    (``term_verbs``)."""
    things: frozenset[str] = frozenset()
    """The term words that name a thing, whose -ed and -ing forms are no mention
    (``term_verbs.noun_words``)."""
    _passages: dict[tuple[str, str], str] = field(default_factory=dict, repr=False,
                                                  compare=False)
    """The id of the passage with no anchor that defines what a lesson's (slug) sentence
    opening so does, found once for the lesson's passages (``_defines``)."""
    _terms: dict[str, Terms] = field(default_factory=dict, repr=False, compare=False)
    """Each document's ``terms_of`` (by its id) asked for once and not yet again."""

    @property
    def term_count(self) -> int:
        return len(self.records)

    def lesson_keys(self, keys: dict[str, str], cache: BuildCache) -> dict[str, str]:
        """A digest of each lesson (its ``CourseRead.keys``) and the names ``terms_of``
        gives its documents: what the Whoosh stage writes of a lesson follows from it. A
        glossary change alters only the digests of lessons that mention what changed."""
        def digest(lesson: LessonMentions) -> str:
            return fingerprint((keys[lesson.slug], [self.terms_of(d) for d in lesson.docs]))

        return {lesson.slug: cache.remember("indexed terms", f"{lesson.key}:{keys[lesson.slug]}",
                                            partial(digest, lesson))
                for lesson in self.lessons}

    def terms_of(self, doc: Document) -> Terms:
        """Every name of every term the document's indexed text names: its heading and text,
        and the headings above it, which are indexed with it; apart, those only its lesson's
        title names, which count as little as the title (``whoosh_index.TITLE_WEIGHT``); and
        those of the terms it defines (``whoosh_index.DEFINED_WEIGHT``). The Whoosh stage
        indexes them, so a search for one name finds sections that write another. A section
        of "The KV cache" matched kv cache through the title, and key-value cache only where
        its own text said KV cache.

        A build asks for a document's twice, for its row and for its lesson's digest
        (``lesson_keys``): what the first asked for is kept until the second asks."""
        kept = self._terms.pop(doc.id, None)
        if kept is None:
            kept = self._terms[doc.id] = self._terms_named(doc)
        return kept

    def _terms_named(self, doc: Document) -> Terms:
        lesson = self._by_slug.get(doc.lesson.slug)
        if lesson is None:
            return (), (), ()
        found = lesson.found_by_id.get(doc.id, {})
        title = lesson.title_names
        if found and doc.id == lesson.docs[0].id:  # its counts hold the title's too
            found = {name: n for name, n in found.items() if n > title.get(name, 0)}
        names = {*found, *lesson.named_by_id.get(doc.id, ())}
        return (self._names(names), self._names(title.keys() - names),
                self._names(self._defines(lesson, doc)))

    def _defines(self, lesson: LessonMentions, doc: Document) -> list[str]:
        """The terms the section ``doc`` defines: those defined at its anchor; of a lesson's
        passages with no anchor, each term's goes to the passage holding its defining
        sentence (``model.defining_passage``, as a search ranks it), not to the first: the
        hallucination lesson's opening paragraph, which never writes hallucination, was a
        hit for it on the definition's weight alone. Only the text of such a lesson's
        passages is read, and only when it has several and defines a term there."""
        if doc.kind != "section":
            return []
        defined = self.defined.get((lesson.slug, doc.anchor), ())
        if doc.anchor is not None or not defined:
            return [name for name, _ in defined]
        passages = None
        for _, opening in defined:
            if (lesson.slug, opening) not in self._passages:
                if passages is None:
                    passages = [d for d in lesson.docs
                                if d.kind == "section" and d.anchor is None]
                    texts = [" ".join(d.body.split()) for d in passages]
                self._passages[lesson.slug, opening] = passages[
                    defining_passage(opening, texts)].id
        return [name for name, opening in defined
                if self._passages[lesson.slug, opening] == doc.id]

    def _names(self, terms) -> tuple[str, ...]:
        """Every name of ``terms``, A–Z by term. Made in C (``chain``, ``map``): a build asks
        for the names of every document twice, for its row and for its lesson's digest
        (``lesson_keys``), and a generator's step per name was most of it."""
        return tuple(chain.from_iterable(map(self.variants.__getitem__, sorted(terms))))

    @cached_property
    def _by_slug(self) -> dict[str, LessonMentions]:
        return {lesson.slug: lesson for lesson in self.lessons}

    def tables(self, slugs: set[str] | None = None
               ) -> tuple[list[SectionRow], dict[str, list[tuple[int, int, int]]]]:
        """The rows of the glossary file's mention tables (of the ``slugs`` lessons, or of
        all): the sections some term is mentioned in, and each term's (course order,
        count, marked count) of those sections: the marked ones are those that are not
        ``LessonMentions.plain``."""
        sections: list[SectionRow] = []
        mentions: dict[str, list[tuple[int, int, int]]] = {r.term: [] for r in self.records}
        for lesson in self.lessons:
            if slugs is not None and lesson.slug not in slugs:
                continue
            for doc, found, plain in zip(lesson.docs, lesson.found, lesson.plain, strict=True):
                if found:
                    sections.append((doc.order, lesson.slug, doc.lesson.title, doc.anchor,
                                     doc.heading, doc.url))
                    for name, count in found.items():
                        mentions[name].append((doc.order, count, count - plain.get(name, 0)))
        return sections, mentions


@dataclass(frozen=True)
class LessonMentions:
    """One lesson's term mentions."""

    slug: str
    key: str
    """The build cache's key for ``found``: the lesson's own key and a digest of the terms
    that counted its mentions (an earlier build's, when the terms changed nowhere this
    lesson's words reach: ``_Unchanged``)."""
    docs: list[Document]
    counted: tuple[bytes, bytes, bytes, bytes, bytes, bytes]
    """``found``, ``totals``, the lesson's words, ``named``, ``title_names`` and ``plain``,
    pickled: read only for the lessons a build writes again (``found``, ``named``,
    ``title_names``, ``plain``), whose mentions changed (``totals``,
    see ``_summed``), or that may mention a term added or removed (the words, see
    ``_Unchanged``).
    Unpickling every lesson's was a sixth of a one-lesson rebuild (bench/README.md)."""
    place: str
    """Where the lesson's rows go in the mention tables (its number: its documents' course
    orders follow from it, ``Document.order``) and what they are: equal places, equal rows."""

    @cached_property
    def found(self) -> list[dict[str, int]]:
        """For each document, how often it mentions each term (by name)."""
        return pickle.loads(self.counted[0])

    @cached_property
    def totals(self) -> dict[str, tuple[int, int]]:
        """For each term, its mentions in the lesson and the sections that hold them."""
        return pickle.loads(self.counted[1])

    @cached_property
    def found_by_id(self) -> dict[str, dict[str, int]]:
        return {doc.id: found for doc, found in zip(self.docs, self.found, strict=True)}

    @cached_property
    def named(self) -> list[tuple[str, ...]]:
        """For each document, the terms the headings above its own name: indexed with it
        (``Document.fields``), yet not mentions of the section's."""
        return pickle.loads(self.counted[3])

    @cached_property
    def title_names(self) -> dict[str, int]:
        """The terms the lesson's title names, and how often: indexed with every document,
        yet mentions of its first document's alone (``_mention_counts``)."""
        return pickle.loads(self.counted[4])

    @cached_property
    def plain(self) -> list[dict[str, int]]:
        """For each document, how many of its mentions of each one-word term are plain: the
        term's own word in its prose, outside its heading and bold or italic text
        (``TermMatcher.mentions``). The others are marked uses, which alone count before
        the definition of a term the glossary marks as an everyday word too."""
        return pickle.loads(self.counted[5])

    @cached_property
    def named_by_id(self) -> dict[str, tuple[str, ...]]:
        return {doc.id: named for doc, named in zip(self.docs, self.named, strict=True)}


@dataclass
class _Term:
    name: str
    entry: GlossaryEntry | None = None
    lesson_defs: list[tuple[int, LessonDefinition]] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)


def find_terms(course: Course, glossary_dir: Path | None, cache: BuildCache,
               docs: list[Document], keys: dict[str, str]) -> GlossaryBuild:
    """The glossary's entries and the terms lessons define, each with its mentions per
    section; ``docs`` are ``documents(course)``, ``keys`` the lessons'
    ``CourseRead.own_keys`` (a lesson's place among the others changes none of this).

    Mentions are counted per lesson and kept in the build cache under the lesson's key and
    the terms' names, so an unchanged lesson costs a lookup, not a pass over its text.
    """
    entries: tuple[GlossaryEntry, ...] = ()
    problems: tuple[Problem, ...] = ()
    if glossary_dir is not None:  # a missing folder is a warning from read_glossary
        entries, problems = read_glossary(Path(glossary_dir))
    terms = _merge(entries, course, cache, keys)
    variants = {t.name: [t.name, *t.aliases] for t in terms}
    grouped = [(slug, list(lesson_docs))
               for slug, lesson_docs in groupby(docs, key=lambda d: d.lesson.slug)]
    written_as_nouns = _nouns(variants, grouped, keys, cache)
    everyday = everyday_words({t.name: variants[t.name] for t in terms
                               if t.entry is not None and t.entry.everyday})
    things = _things(terms, variants, grouped, keys, cache)
    matcher = TermMatcher(variants, written_as_nouns, everyday, things)
    read_as = [written_as_nouns, everyday, things]
    while len(read_as) > 1 and not read_as[-1]:  # the key a matcher without them had
        read_as.pop()
    matcher_key = fingerprint(sorted(variants.items()) if not any(read_as)
                              else (sorted(variants.items()), *map(sorted, read_as)))
    known = cache.previous_keys("mentions")
    unchanged = _Unchanged(cache, matcher)
    keyed: list[tuple[str, list[Document]]] = []
    for slug, lesson_docs in grouped:
        key = f"{matcher_key}:{keys[slug]}"
        if key not in known:  # counted by other terms, which may mention the same here
            key = unchanged.key(slug, keys[slug]) or key
        keyed.append((key, lesson_docs))
    counted = cache.remember_many("mentions", keyed, partial(_mention_counts, matcher),
                                  _texts)  # only what the cache lacks is read again
    cache.keep("matchers", matcher_key, (variants, *read_as) if any(read_as) else variants)
    for counted_by in {key.split(":", 1)[0] for key, _ in keyed} - {matcher_key}:
        cache.carry("matchers", counted_by)  # the terms that counted a lesson's kept mentions
    # A lesson's number counts every lesson, those without documents too (term_lessons).
    numbers = {lesson.slug: number for number, lesson in enumerate(course.lessons, start=1)}
    lessons = [LessonMentions(slug, key, lesson_docs, found, f"{numbers[slug]}:{key}")
               for (slug, lesson_docs), (key, _), found
               in zip(grouped, keyed, counted, strict=True)]
    summed = _summed(lessons, [t.name for t in terms], cache)
    anchors, clashes = _anchors(terms)
    clashes += _anchors_named(terms, anchors, matcher)
    records = [_record(t, anchors[t.name], *summed[t.name])
               for t in sorted(terms, key=lambda t: t.name.lower())]
    records, unknown = _known_see_also(records, entries, things,
                                       glossary_stubs(problems, entries))
    return GlossaryBuild(_in_file_order(problems + clashes + unknown), records, entries,
                         {t.name: tuple(t.aliases) for t in terms}, variants, lessons,
                         _defined(terms), written_as_nouns, things)


def _things(terms: list[_Term], variants: dict[str, list[str]],
            grouped: list[tuple[str, list[Document]]], keys: dict[str, str],
            cache: BuildCache) -> frozenset[str]:
    """The term words that name a thing, whose -ed and -ing forms are no mention of them
    (``term_verbs.noun_words``): not those of a term the glossary defines as a verb ("To
    record …"), nor a one-word name's whose participle a lesson sets as a term, in a
    heading, its title, bold or italics ("Slicing data"). What the lessons mark is read
    lesson by lesson, in this process (a few short texts a lesson: handing them to the
    others took three times as long), and kept in the build cache under the lesson's own
    key and the forms asked."""
    things = noun_words(variants, (t.name for t in terms if t.entry is not None
                                   and defines_a_verb(t.entry.definition)))
    forms = participles(things, variants)
    if not forms:
        return things
    asked = tuple(sorted(forms))
    digest = fingerprint(asked)
    found = cache.remember_many(
        "marked participles", [(f"{digest}:{keys[slug]}", lesson_docs)
                               for slug, lesson_docs in grouped],
        partial(marked_words, asked), _marked, elsewhere=False)
    return things - {forms[form] for marked in found for form in marked}


def _marked(docs: list[Document]) -> list[str]:
    """What a lesson marks as a term (``_marks``): its title, its sections' headings and
    what they set in bold or italics; not a check's question, a sentence its hit shows as
    a heading (``Document.heading_apart``)."""
    texts = [docs[0].lesson.title] if docs else []
    for doc in docs:
        texts.append(doc.heading_apart or "")
        if doc.kind == "section":
            texts.extend(filter(None, doc.lesson.sections[doc.number].emphasis))
    return texts


def _nouns(variants: dict[str, list[str]], grouped: list[tuple[str, list[Document]]],
           keys: dict[str, str], cache: BuildCache) -> frozenset[str]:
    """The term words in -ing whose verb the lessons do not write as a verb
    (``term_verbs``): "cupping" in a course that writes "cup" only as a noun. The verbs'
    forms are counted lesson by lesson and kept in the build cache under the lesson's own
    key and the forms asked; a glossary without such a word costs nothing."""
    ing = ing_words(variants)
    if not ing:
        return frozenset()
    forms = forms_of(ing)
    asked = fingerprint(forms)
    counted = cache.remember_many(
        "verb forms", [(f"{asked}:{keys[slug]}", lesson_docs) for slug, lesson_docs in grouped],
        partial(count_forms, forms), _searched)
    return nouns(ing, counted)


def _searched(docs: list[Document]) -> list[str]:
    """What mentions are counted in: each document's heading and what it is found by
    (``_texts``)."""
    return ["\n".join(filter(None, (doc.heading_apart, doc.searched))) for doc in docs]


def _defined(terms: list[_Term]
             ) -> dict[tuple[str, str | None], tuple[tuple[str, str], ...]]:
    """The terms each section defines, with their sentences' opening words
    (``GlossaryBuild.defined``), A–Z."""
    found: dict[tuple[str, str | None], set[tuple[str, str]]] = {}
    for term in terms:
        for _, d in term.lesson_defs:
            found.setdefault((d.lesson, d.anchor), set()).add(
                (term.name, opening_words(d.url, d.sentence)))
    return {place: tuple(sorted(named)) for place, named in found.items()}


def _in_file_order(problems: tuple[Problem, ...]) -> tuple[Problem, ...]:
    """The glossary's warnings file by file, as ``read_glossary`` reads the files, and each
    file's top to bottom, whatever check found them: each names a line of one file, as a
    lesson's warnings are its file's. The checks that need every term (a ``See also`` name,
    an anchor) run after reading, and listed their warnings after it, A–Z by term."""
    return tuple(sorted(problems, key=lambda p: (PurePosixPath(p.path), p.line or 0)))


class _Unchanged:
    """Which lessons' mentions a change of terms leaves as they were, so they are not
    counted again: adding a glossary entry changes every lesson's key (the terms' names are
    in it), but a lesson holding no word where the new matcher and the one that counted it
    scan differently (``TermMatcher.changed_words``) gets the same mentions from both.

    Longest-match scanning is why the words are needed: a new longer name takes its words
    from a shorter term's mentions ("attention head" from "attention"), and a lesson that
    holds none of its words cannot lose any."""

    def __init__(self, cache: BuildCache, matcher: TermMatcher):
        self._cache, self._matcher = cache, matcher
        self._changed: dict[str, Callable[[str], bool] | None] = {}
        self._words: dict[str, dict[str, bool]] = {}  # by the counting matcher's key

    def key(self, slug: str, own: str) -> str | None:
        """The key the lesson's mentions were counted under, when they still hold."""
        place = self._cache.previous("lesson mentions", slug)
        if place is None:
            return None
        key = place.split(":", 1)[1]
        before, _, counted_own = key.partition(":")
        if counted_own != own:
            return None
        changed = self._changed_since(before)
        counted = self._cache.previous("mentions", key) if changed is not None else None
        if counted is None:
            return None
        words = self._words.setdefault(before, {})
        for word in pickle.loads(counted[2]):
            hit = words.get(word)
            if hit is None:
                hit = words[word] = changed(word)
            if hit:
                return None
        return key

    def _changed_since(self, matcher_key: str) -> Callable[[str], bool] | None:
        if matcher_key not in self._changed:
            old = self._cache.previous("matchers", matcher_key)
            self._changed[matcher_key] = (
                None if old is None else self._matcher.changed_words(
                    TermMatcher(*old) if isinstance(old, tuple) else TermMatcher(old)))
        return self._changed[matcher_key]


def _summed(lessons: list[LessonMentions], names: list[str], cache: BuildCache
            ) -> dict[str, list[int]]:
    """Each term's (mentions, sections) in the whole course, the sum of the lessons'
    ``totals``: the previous build's sum, less the lessons whose mentions changed or went,
    plus their new totals (else summed lesson by lesson). A term added starts from zero; a
    lesson whose mentions were kept (``_Unchanged``) mentions no term added or removed."""
    keys = {lesson.slug: lesson.key for lesson in lessons}
    before = cache.previous("mention totals", "course") or {"lessons": {}}
    old_keys = before["lessons"]
    gone = [cache.previous("mentions", key) for slug, key in old_keys.items()
            if keys.get(slug) != key]
    if "summed" in before and None not in gone:
        summed = before["summed"]
        summed.update((name, [0, 0]) for name in names if name not in summed)
    else:  # nothing to start from, or a lesson's old totals are missing: every lesson
        summed, old_keys, gone = {name: [0, 0] for name in names}, {}, []
    changes = [(1, lesson.totals) for lesson in lessons if old_keys.get(lesson.slug) != lesson.key]
    changes += [(-1, pickle.loads(counted[1])) for counted in gone]
    for sign, totals in changes:
        for name, (count, sections) in totals.items():
            total = summed[name]
            total[0] += sign * count
            total[1] += sign * sections
    summed = {name: summed[name] for name in names}
    cache.keep("mention totals", "course", {"summed": summed, "lessons": keys})
    return summed


def write_glossary(found: GlossaryBuild, course: Course, glossary_dir: Path | None,
                   out_dir: Path, live: Path | None, cache: BuildCache,
                   docs: list[Document], previous: Path | None = None,
                   files: dict[str, str] | None = None) -> None:
    """The glossary table, the completions and the coverage report's build-time facts, in
    the version being built in ``out_dir``; ``live`` is the live version (None: none), whose
    broken anchors and moved links are carried over.

    When only a few lessons' mentions differ from the ``previous`` version's, its file is
    copied and patched: those lessons' rows are replaced, the completions kept if they are
    the same, and the small tables written again. The tables are the same either way.
    ``files``: each lesson's file digest (``CourseRead.files``), which tells a renamed file.
    """
    patched = _lessons_to_patch(found, cache, previous)
    _write_mention_tables(found, out_dir, cache, previous, patched)
    cache.keep("glossary", "terms", [record.term for record in found.records])
    for lesson in found.lessons:
        cache.keep("lesson mentions", lesson.slug, lesson.place)
    _write_completions(found, course, docs, out_dir, cache, patched is not None)
    anchors = published_anchors(course, files)
    cache.keep(*_PUBLISHED, anchors)
    broken, moved = find_broken_anchors(anchors, live, cache.previous(*_PUBLISHED))
    write_coverage_tables(out_dir, CoverageFacts(
        candidates=_candidates(found, course, docs, cache),
        broken_anchors=broken,
        conflicts=glossary_conflicts(found.problems, found.entries, glossary_dir),
        stubs=glossary_stubs(found.problems, found.entries),
        moved=moved,
    ))


_PUBLISHED = ("anchors", "published by slug, with files and their digests")
"""The build cache's entry for ``published_anchors``: each lesson's link, anchors, file and
file digest (named anew when the file, then its digest, was added, so that a cache kept
before is not read as one)."""


def _write_mention_tables(found: GlossaryBuild, out_dir: Path, cache: BuildCache,
                          previous: Path | None, patched: set[str] | None) -> None:
    """The terms and their mentions, per section and per lesson: written anew, or the
    ``patched`` lessons' rows replaced in a copy of the ``previous`` version's file. (The
    rows, a tuple per mention, are let go when this returns: 9 MB at 10k sections.)"""
    if patched is None:
        sections, mentions = found.tables()
        write_glossary_table(out_dir, found.records, sections, mentions, found.nouns,
                             found.things)
        write_term_lessons(out_dir, mentions, LESSON_ORDERS)
        return
    shutil.copyfile(previous / GLOSSARY_DB, out_dir / GLOSSARY_DB)
    old = lesson_ranges(out_dir, patched)
    sections, mentions = found.tables(patched)
    gone = patch_glossary_table(out_dir, found.records, sections, mentions, old,
                                cache.previous("glossary", "terms"), found.nouns, found.things)
    patch_term_lessons(out_dir, mentions, LESSON_ORDERS, old, gone)


PATCH_AT_MOST = 0.25
"""The share of lessons above which the glossary file is written anew, not patched."""


def _lessons_to_patch(found: GlossaryBuild, cache: BuildCache, previous: Path | None
                      ) -> set[str] | None:
    """The lessons whose mention rows differ from the previous version's (changed, moved or
    removed, or counted again for terms added or removed), or None when the file must be
    written anew: no previous file, or too many lessons."""
    if (previous is None or not (previous / GLOSSARY_DB).is_file()
            or cache.previous("glossary", "terms") is None):
        return None
    current = {lesson.slug: lesson.place for lesson in found.lessons}
    patched = {slug for slug, place in current.items()
               if cache.previous("lesson mentions", slug) != place}
    patched |= cache.previous_keys("lesson mentions") - current.keys()
    return patched if len(patched) <= PATCH_AT_MOST * max(len(current), 1) else None


def _write_completions(found: GlossaryBuild, course: Course, docs: list[Document],
                       out_dir: Path, cache: BuildCache, copied: bool) -> None:
    """The completion tables: written anew, or, in a ``copied`` file, patched: the terms'
    rows when a term was added, removed or changed, the lessons' rows when a lesson was
    added, removed or retitled, and the headings of each lesson number whose headings
    changed (a lesson added or removed at the end changes one number; one added at the
    start, all of them, and the tables are written anew)."""
    terms, lessons, parts = _completions_key(found, course, cache)
    before = cache.previous("glossary", "completions") or {}
    cache.keep("glossary", "completions", {"terms": terms, "lessons": lessons, "parts": parts})
    old = before.get("parts", [])
    changed = [number for number in range(1, max(len(parts), len(old)) + 1)
               if parts[number - 1:number] != old[number - 1:number]]
    if not copied or not before or len(changed) > PATCH_AT_MOST * max(len(parts), 1):
        write_completions(out_dir, _completion_entries(found.records, course, docs))
        return
    if before.get("terms") != terms:
        patch_kind(out_dir, "term", _term_entries(found.records))
    if before.get("lessons") != lessons:
        patch_kind(out_dir, "lesson", _lesson_entries(course))
    if changed:
        patch_headings(out_dir, [(n * LESSON_ORDERS, (n + 1) * LESSON_ORDERS - 1)
                                 for n in changed], dict(_headings(docs)))


def _completion_entries(records: list[TermRecord], course: Course, docs: list[Document]):
    """What readers complete as they type: terms A–Z, then lessons and headings in order,
    numbered in that order (a heading by its document's place in the course)."""
    yield from _term_entries(records)
    yield from _lesson_entries(course)
    for number, suggestion in _headings(docs):
        yield number, suggestion, (suggestion.text,)


def _term_entries(records: list[TermRecord]) -> Iterator[tuple[int, Suggestion, tuple[str, ...]]]:
    for number, record in enumerate(records):
        yield (number, Suggestion(record.term, "term", record.anchor),
               (record.term, *record.aliases))


def _lesson_entries(course: Course) -> Iterator[tuple[int, Suggestion, tuple[str, ...]]]:
    for number, lesson in enumerate(course.lessons, start=LESSON_ORDERS // 2):
        yield number, Suggestion(lesson.title, "lesson", lesson.url), (lesson.title,)


def _headings(docs: list[Document]) -> Iterator[tuple[int, Suggestion]]:
    for doc in docs:
        if doc.kind == "section" and doc.heading:
            yield doc.order, Suggestion(doc.heading, "heading", doc.url)


def _completions_key(found: GlossaryBuild, course: Course, cache: BuildCache
                     ) -> tuple[str, str, list[str]]:
    """What ``_completion_entries`` gives: a digest of the terms' names, one of the lessons'
    titles and links, and one of each lesson's headings and their links, kept per lesson so
    an unchanged lesson is not walked again."""
    docs = {lesson.slug: (lesson.key, lesson.docs) for lesson in found.lessons}

    def digest(lesson_docs: list[Document]) -> str:
        return fingerprint([(d.heading, d.url) for d in lesson_docs
                            if d.kind == "section" and d.heading])

    parts = []
    for lesson in course.lessons:
        key, lesson_docs = docs.get(lesson.slug, (None, []))
        compute = partial(digest, lesson_docs)
        parts.append(cache.remember("completions", key, compute) if key else compute())
    return (fingerprint([(r.term, r.anchor, r.aliases) for r in found.records]),
            fingerprint([(lesson.title, lesson.url) for lesson in course.lessons]), parts)


Texts = list[tuple[str, tuple[str, ...], int, tuple[str, ...]]]
"""Per document: its heading and text, its title and the headings above it, and what marks
a use of a term in it: the number of words its heading has, which come first in the text,
and the parts the lesson sets in bold or italics (``_marks``)."""


def _texts(docs: list[Document]) -> Texts:
    """What mentions are counted in, each document's heading and what it is found by
    (``Document.searched``: a check's wrong options are not; nor its heading, the question
    its text writes: ``Document.heading_apart``); what else of the lesson is indexed with
    it, its title and the headings above its own; and its marks."""
    return [("\n".join(filter(None, (doc.heading_apart, doc.searched))),
             (doc.lesson.title, *doc.heading_path), *_marks(doc)) for doc in docs]


def _marks(doc: Document) -> tuple[int, tuple[str, ...]]:
    """What marks a word of a section's text as a term: its heading (as its number of words,
    the text's first) and what the lesson sets in bold or italics. (Code spans and links
    reach the lesson's text as plain words: the readers keep no trace of them.) A check
    question's heading is its sentence, and marks nothing."""
    if doc.kind != "section":
        return 0, ()
    heading = len(find_words(doc.heading)) if doc.heading else 0
    return heading, tuple(filter(None, doc.lesson.sections[doc.number].emphasis))


def _mention_counts(matcher: TermMatcher, texts: Texts
                    ) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes]:
    """One lesson's mentions (``LessonMentions.counted``): for each of its documents, each
    term's count (plain dicts, which pickle faster than Counters), and a term the lesson's
    title names but no document writes counted with its first document's (``_title_uses``);
    each term's (mentions, sections) in all; every word the lesson writes, its titles too
    (for ``_Unchanged``); for each document, the terms the headings above it name
    (``LessonMentions.named``); the terms the title names, with their counts; and for each
    document, its plain mentions (``LessonMentions.plain``). Each pickled."""
    words: set[str] = set()
    found, plain = [], []
    for text, _, heading, emphasis in texts:
        in_prose: Counter[str] = Counter()
        found.append(dict(matcher.mentions(text, words, in_prose, heading)))
        if in_prose and emphasis:
            marked: Counter[str] = Counter()
            for mark in emphasis:
                matcher.mentions(mark, None, marked)
            in_prose -= marked  # what bold or italics write is marked
        plain.append(dict(in_prose))
    title: dict[str, int] = {}
    if texts:  # the title names terms once a lesson
        title = dict(matcher.mentions(texts[0][1][0], words))
        _title_uses(found, title)
    in_part: dict[str, frozenset[str]] = {}  # each heading, read once a lesson
    for _, parts, *_ in texts:
        for part in parts[1:]:
            if part not in in_part:
                in_part[part] = frozenset(matcher.mentions(part, words))
    named = [tuple(sorted(frozenset().union(*map(in_part.__getitem__, parts[1:]))))
             for _, parts, *_ in texts]
    totals: dict[str, tuple[int, int]] = {}
    for counts in found:
        for name, count in counts.items():
            before = totals.get(name, (0, 0))
            totals[name] = (before[0] + count, before[1] + 1)
    return (pickle.dumps(found, protocol=5), pickle.dumps(totals, protocol=5),
            pickle.dumps(words, protocol=5), pickle.dumps(named, protocol=5),
            pickle.dumps(title, protocol=5), pickle.dumps(plain, protocol=5))


def _title_uses(found: list[dict[str, int]], titled: Mapping[str, int]) -> None:
    """Count the terms a lesson's title names (``titled``) in ``found``, its documents'
    mentions. Every document is indexed with the title, but a title that names a term is one
    use of it, not one per section; and none beside a section that writes the term, where a
    reader following the mention finds it written ("Routers and gateways" over a section
    about routers is that section's use). A term no section writes is the title's alone: it
    is counted at the lesson's first document, nearest the title, so that the lesson still
    uses it."""
    for name, count in titled.items():
        if not any(name in counts for counts in found):
            found[0][name] = count


def _candidates(found: GlossaryBuild, course: Course, docs: list[Document],
                cache: BuildCache):
    """Jargon candidates, reused while the sampled text, the lessons' titles and links and
    the known terms are unchanged; otherwise found again, from what the cache keeps of every
    section whose text is unchanged (``candidates._facts``), keyed by its heading and the
    digest of its text, so no unchanged section is read for it."""
    sampled = sample(docs)
    digests = _text_digests(found, {doc.lesson.slug for doc in sampled}, cache)
    texts = [(d.id, d.heading, digests[d.lesson.slug][d.number], d.lesson.title, d.url)
             for d in sampled]
    named = _named_by_see_also(found)
    key = fingerprint((texts, sorted(found.aliases.items()), named))
    if cache.carry("candidates", key):
        cache.carry_all("candidate facts")  # for the next build that must find them again
        cache.carry_all("candidate marks")
        cache.carry("candidate counts", "sample")
        return cache.previous("candidates", key)
    result = find_candidates(course, found.aliases, docs=sampled, cache=cache,
                             text_key=lambda d: digests[d.lesson.slug][d.number].hex()
                             + (d.heading_apart or ""), named=named)
    cache.keep("candidates", key, result)
    return result


def _named_by_see_also(found: GlossaryBuild) -> tuple[str, ...]:
    """The names glossary entries' ``See also`` give that no term has (``_known_see_also``
    left them unlinked and warned), A–Z: the editor has already said they are terms. A
    stub's name is left out: its entry is written, and listed as needing a definition."""
    linked = {name for record in found.records for name in record.see_also}
    stubs = {term.lower() for term, _ in glossary_stubs(found.problems, found.entries)}
    return tuple(sorted({name for entry in found.entries for name in entry.see_also
                         if name not in linked and name.lower() not in stubs},
                        key=str.lower))


def _text_digests(found: GlossaryBuild, slugs: set[str], cache: BuildCache
                  ) -> dict[str, list[bytes]]:
    """A digest of each document's text and what it sets in bold or italics (which the
    candidates read: ``candidates._marked_words``), for the ``slugs`` lessons, kept under
    the lesson's key: a lesson taken unchanged from the cache is not unpickled for it."""
    def digest(docs: list[Document]) -> list[bytes]:
        return [hashlib.blake2b("\0".join((doc.body, *_marks(doc)[1])).encode("utf-8"),
                                digest_size=16).digest()
                for doc in docs]

    return {lesson.slug: cache.remember("text digests", lesson.key, partial(digest, lesson.docs))
            for lesson in found.lessons if lesson.slug in slugs}


def _merge(entries: tuple[GlossaryEntry, ...], course: Course, cache: BuildCache,
           keys: dict[str, str]) -> list[_Term]:
    """One term per name: glossary entries first, then terms only lessons define.

    A lesson's term is the glossary's when the glossary's matcher knows any spelling of it;
    terms only lessons define are told apart by ``term_key`` (case and plural), which needs
    no matcher rebuilt for each new one. A name a pointing kind noun opens ("pattern
    memoization" in "We call this pattern memoization") is the words after the kind when the
    glossary has them and not the whole (``LessonDefinition.alone``): the kind stays in the
    name otherwise ("pattern matching") only because the sentence cannot tell the two apart,
    and read so the false term took the glossary term's definition and mentions. "We call
    this type inference" gives no ``alone`` (``definition_patterns._OPENS_COMPOUNDS``).
    Likewise a name given another ("records, also known as rows,") is the one the glossary
    has (``LessonDefinition.other``): the sentence introduces both. A sentence that names
    a term only where the glossary has it ("This is a firewall.": ``glossary_only``) defines
    nothing elsewhere. An abbreviation spelt out in passing (``LessonDefinition.passing``)
    defines nothing: its two names are one term's where either names a term, in the
    glossary or defined by any lesson. Only where neither does (for a name the glossary
    lacks: "Body Mass Index (BMI)") it makes a lesson term, the two names and the first such
    sentence in course order: the card is found by either name, and the long name is not
    read as mentions of the glossary terms in it. Such a term has one sentence, so it never
    makes a ``lessons-disagree`` conflict, and a glossary term's ``defined_at`` is never one.
    """
    terms: list[_Term] = [_Term(e.term, e, aliases=list(e.aliases)) for e in entries]
    matcher = TermMatcher({t.name: [t.name, *t.aliases] for t in terms})
    lookup = {t.name: t for t in terms}
    lesson_only: dict[str, str] = {}  # term_key of a name only lessons give (a lesson-only
    # term, its abbreviation, or a glossary term's spelt out) → its term's name
    keyed = [(keys[lesson.slug], lesson) for lesson in course.lessons]
    found_in = cache.remember_many("definitions", keyed, find_definitions)
    passing: list[tuple[int, LessonDefinition]] = []  # abbreviations spelt out in passing
    for order, found in enumerate(found_in, start=1):
        for definition in found:
            spellings = [definition.term, *filter(None, [definition.abbreviation])]
            if definition.passing:
                passing.append((order, definition))
                continue
            name = next((n for s in spellings if (n := matcher.canonical_for(s))), None)
            if name is None and definition.alone and (
                    name := matcher.canonical_for(definition.alone)):
                # "We call this pattern memoization" names the glossary's memoization
                definition = dataclasses.replace(definition, term=definition.alone)
            if name is None and definition.other and (
                    name := matcher.canonical_for(definition.other)):
                # "records, also known as rows," introduces the glossary's record
                definition = dataclasses.replace(definition, term=definition.other)
            if name is None and definition.glossary_only:
                continue  # "This is a bug." names nothing the glossary has
            name = name or next((lesson_only[k] for s in spellings
                                 if (k := term_key(s)) in lesson_only), None)
            if name is None:
                term = _Term(definition.term, aliases=spellings[1:])
                terms.append(term)
                lookup[term.name] = term
                lesson_only.update((term_key(s), term.name) for s in spellings)
                name = term.name
            elif definition.abbreviation:
                _name_spelt_out(lookup[name], spellings, matcher, lesson_only)
            lookup[name].lesson_defs.append((order, definition))
    for order, definition in passing:  # "a wide field of view (FOV) and …" defines
        # nothing: the two names are one term's where either is a term (of the glossary or
        # a lesson), and else make one, which only this sentence shows
        spellings = [definition.term, *filter(None, [definition.abbreviation])]
        name = next((n for s in spellings if (n := matcher.canonical_for(s))), None) or next(
            (lesson_only[k] for s in spellings if (k := term_key(s)) in lesson_only), None)
        if name is not None:
            _name_spelt_out(lookup[name], spellings, matcher, lesson_only)
            continue
        term = _Term(definition.term, aliases=spellings[1:])
        terms.append(term)
        lookup[term.name] = term
        lesson_only.update((term_key(s), term.name) for s in spellings)
        term.lesson_defs.append((order, definition))
    return terms


def _name_spelt_out(term: _Term, spellings: list[str], matcher: TermMatcher,
                    lesson_only: dict[str, str]) -> None:
    """"The Domain Name System (DNS)" with DNS in the glossary: the name the glossary lacks
    (the long one, or the abbreviation of a long name it has) becomes an alias of its term,
    as it is of a term only lessons define. A search for "Domain Name System" then shows DNS's
    card and finds what DNS's sections say; "network address translation" is NAT's, not a
    mention of "address" (an alias of IP address) in it. A name another term has (in the
    glossary or the lessons) stays that term's."""
    for spelling in spellings:
        key = term_key(spelling)
        if matcher.canonical_for(spelling) is None and key not in lesson_only:
            term.aliases.append(spelling)
            lesson_only[key] = term.name


def _known_see_also(records: list[TermRecord], entries: tuple[GlossaryEntry, ...],
                    things: frozenset[str] = frozenset(),
                    stubs: tuple[tuple[str, str], ...] = (),
                    ) -> tuple[list[TermRecord], tuple[Problem, ...]]:
    """The records with each ``see_also`` name that names no term left out, and a warning
    for each at the line the name is written on (its ``See also:`` line, or its item of the
    front matter's list), in the term's file: the term page would link it to a page that is
    not there. A name is a term's when the service finds it (any spelling, alias or
    anchor), a participle of a thing's name none (``things``, as the service reads it).
    A name of one of ``stubs`` (``glossary_stubs``) is not linked either, since its page
    says only that it has no definition yet, but its warning says so and where the stub is,
    where "names no term" sat beside the stub's own warning as if the two disagreed."""
    names = {r.term for r in records}
    if all(name in names for r in records for name in r.see_also):
        return records, ()  # the usual case: no matcher to build
    glossary = Glossary(records, things=things, stubs=stubs)
    written_at = {e.source: dict(zip(e.see_also, e.see_also_lines, strict=True))
                  for e in entries}
    problems: list[Problem] = []
    kept = []
    for record in records:
        known = tuple(name for name in record.see_also if glossary.find(name) is not None)
        if known != record.see_also:
            path, _, line = (record.source or "").rpartition(":")
            lines = written_at.get(record.source or "", {})
            for name in record.see_also:
                if name not in known:
                    problems.append(Problem(path, _unlinked_see_also(name, glossary.stub(name)),
                                            lines.get(name, int(line) if line.isdigit()
                                                      else None)))
            record = dataclasses.replace(record, see_also=known)
        kept.append(record)
    return kept, tuple(problems)


def _unlinked_see_also(name: str, stub: tuple[str, str] | None) -> str:
    """The warning for a ``See also`` name left unlinked: a stub's (term, ``file:line``)
    has no definition yet; any other name names nothing."""
    if stub is not None:
        return (f"See also {name!r} names a term with no definition yet (its stub is at "
                f"{stub[1]}); it is not linked until it has one.")
    return f"See also {name!r} names no term of the glossary or the lessons; it is not linked."


def _anchors(terms: list[_Term]) -> tuple[dict[str, str], tuple[Problem, ...]]:
    """Each term's anchor, by name: its ``{#anchor}`` (or front matter's), else its name's
    (``term_anchor``). Every term's id on /glossary and link /glossary/<anchor> must be its
    own: two ``id="index"`` made ``secondary index {#index}`` link to the index page.

    The anchors of the terms' own names are claimed first, then the others, each in the
    order of ``terms`` (the glossary's in file and line order, then the lessons'): a term
    keeps its name's anchor from another's ``{#anchor}``, which the term page's lookup by
    name would answer with it anyway. A term whose anchor is taken gets its name's, or that
    with ``-1``, ``-2`` (as a lesson's repeated headings do) when it is taken too, with a
    warning naming both at a glossary line; none when only lessons define both, as no
    glossary line made them alike."""
    own = {term.name: term_anchor(term.name) for term in terms}
    wanted = {term.name: term.entry.anchor if term.entry and term.entry.anchor
              else own[term.name] for term in terms}
    claimed = AnchorRegistry()
    holders: dict[str, _Term] = {}
    anchors: dict[str, str] = {}
    problems: list[Problem] = []
    for term in sorted(terms, key=lambda t: wanted[t.name] != own[t.name]):  # stable
        want = wanted[term.name]
        anchor = claimed.claim(want if want not in claimed else own[term.name])
        anchors[term.name] = anchor
        holder = holders.setdefault(want, term)
        holders.setdefault(anchor, term)
        if holder is not term and (term.entry or holder.entry):
            problems.append(_anchor_taken(want, term, holder, anchor))
    return anchors, tuple(problems)


def _anchor_taken(wanted: str, term: _Term, holder: _Term, anchor: str) -> Problem:
    """The warning that ``term`` wanted the anchor ``holder`` has, and has ``anchor``: at
    the glossary line of ``term``, or of ``holder`` when only lessons define ``term``; at
    the line of its ``anchor:`` when that is the anchor wanted."""
    if term.entry is None:
        path, line = _anchor_place(holder.entry, wanted)
        return Problem(path, f"The anchor {wanted!r} of {holder.name!r} is the anchor of "
                       f"{term.name!r} too, a term a lesson defines; {term.name!r} has the "
                       f"anchor {anchor!r}.", line)
    path, line = _anchor_place(term.entry, wanted)
    where = holder.entry.source if holder.entry else "a term a lesson defines"
    return Problem(path, f"The anchor {wanted!r} of {term.name!r} is the anchor of "
                   f"{holder.name!r} ({where}) too; {term.name!r} has the anchor {anchor!r}.",
                   line)


def _anchor_place(entry: GlossaryEntry, anchor: str) -> tuple[str, int]:
    """The file and line a warning about the entry's ``anchor`` names: where the editor
    wrote it (a front matter's ``anchor:`` line), else the term's line, which gives it."""
    path, _, line = entry.source.rpartition(":")
    if entry.anchor == anchor and entry.anchor_line:
        return path, entry.anchor_line
    return path, int(line)


def _anchors_named(terms: list[_Term], anchors: dict[str, str], matcher: TermMatcher
                   ) -> tuple[Problem, ...]:
    """A warning for each ``{#anchor}`` a term keeps that spells another term's name (its
    name, an alias, any spelling ``matcher`` knows), at the line the anchor is written on:
    ``/glossary/<anchor>`` opens the term of the anchor (``Glossary.at``), not the term a
    reader typing that name looks for, which has a page at its own anchor. With
    ``B-tree {#Index}`` beside Index, /glossary/Index is B-tree's page."""
    by_name = {term.name: term for term in terms}
    problems: list[Problem] = []
    for term in terms:
        anchor = term.entry.anchor if term.entry else None
        if not anchor or anchors[term.name] != anchor:
            continue  # none written, or it gave way to another term's (``_anchors``)
        named = anchor if anchor in by_name else matcher.canonical_for(anchor)
        if named is None or named == term.name:
            continue
        other = by_name[named]
        path, line = _anchor_place(term.entry, anchor)
        where = other.entry.source if other.entry else "a term a lesson defines"
        problems.append(Problem(
            path, f"The anchor {anchor!r} of {term.name!r} is {_spells(anchor, other)} of "
            f"{other.name!r} ({where}): /glossary/{anchor} opens {term.name!r}, and "
            f"{other.name!r} is at /glossary/{anchors[other.name]}.", line))
    return tuple(problems)


def _spells(anchor: str, term: _Term) -> str:
    """What of ``term`` an anchor that finds it is, as a warning says it: its name, an
    alias, or a spelling of either: ``memo``, an alias of cache, is no spelling of cache."""
    if anchor == term.name:
        return "the name"
    if anchor in term.aliases:
        return "an alias"
    if TermMatcher({term.name: ()}).canonical_for(anchor) == term.name:
        return "a spelling"
    return "a spelling of an alias"


def _record(term: _Term, anchor: str, mention_count: int, mention_sections: int
            ) -> TermRecord:
    """The term as the table stores it; its mentions are written beside it, not kept in
    the record."""
    entry = term.entry
    definitions = []
    if entry is not None:
        definitions.append(Definition("glossary", entry.definition, entry.source))
    # The clearest lesson definition first (``clarity``), each kind in course order: the term
    # page, its card and ``defined_at`` show the first.
    lesson_defs = sorted(term.lesson_defs, key=lambda found: clarity(found[1]))
    for order, d in lesson_defs:
        definitions.append(Definition("lesson", d.text, d.url, d.lesson, d.anchor, d.url,
                                      d.kind, order))
    first_lesson = lesson_defs[0][1] if lesson_defs else None
    return TermRecord(
        term=term.name,
        anchor=anchor,
        definition=entry.definition if entry else (first_lesson.text if first_lesson else None),
        source=entry.source if entry else (first_lesson.url if first_lesson else None),
        in_glossary=entry is not None,
        aliases=tuple(dict.fromkeys(term.aliases)),
        see_also=tuple(entry.see_also) if entry else (),
        definitions=tuple(definitions),
        mentions=(),
        mention_count=mention_count,
        mention_sections=mention_sections,
        everyday=entry is not None and entry.everyday,
    )
