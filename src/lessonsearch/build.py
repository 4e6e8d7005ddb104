"""The indexer pipeline: read the course → find terms → write Whoosh + glossary → swap in.

Each stage hands the next plain model objects. Nothing is written into the live index: the
whole version is built in a temporary folder and published only when it is complete.
"""

from __future__ import annotations

import dataclasses
import gc
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from . import index_store, parallel
from .build_cache import CACHE_FILE, BuildCache, CacheDamaged, fingerprint
from .counts import counted
from .course import index_inside, read_course
from .coverage_allow import course_allow
from .coverage_facts import published_in, renamed_lessons
from .errors import IndexAmongLessons, IndexIncompatible, IndexInCourse, IndexToRebuild
from .glossary_build import GlossaryBuild, find_terms, write_glossary
from .glossary_table import GLOSSARY_DB, GLOSSARY_PART
from .model import CourseRead, Problem
from .whoosh_index import Document, documents
from .whoosh_open import check_search_index
from .whoosh_writer import plan_whoosh


@dataclass(frozen=True, slots=True)
class BuildReport:
    version: str
    lessons: int
    sections: int
    documents: int
    terms: int
    problems: tuple[Problem, ...]
    seconds: float
    rewritten: int = 0
    """Lessons written to Whoosh; the others were taken unchanged from the previous version."""
    published: bool = True
    """False for a ``strict`` build with problems: it wrote no version (``version`` is
    empty) and the live one is as it was."""
    unchanged: bool = False
    """True when the version built held just what the live one holds: it was not published,
    and ``version`` is the live one's, which stays live."""
    notes: tuple[str, ...] = ()
    """What the build could not take from the live version, which it did without: a damaged
    live version is replaced, never a reason to fail."""
    changes: tuple[str, ...] = ()
    """What a published version holds that the live one did not (``_changes``): lesson files
    added, removed and renamed, warnings that changed, the glossary, the course file's details, the
    lessons' links. "0 of 13 lessons rewritten" alone read as a build that did nothing, when
    a title-only lesson had been added, a file broken or a definition edited."""

    @property
    def skipped(self) -> int:
        return sum(1 for p in self.problems if p.skipped)

    @property
    def warnings(self) -> int:
        return len(self.problems)

    def summary(self) -> str:
        counts = (f"{counted(self.lessons, 'lesson')}, {counted(self.sections, 'section')}, "
                  f"{counted(self.terms, 'term')}; {counted(self.warnings, 'warning')}, "
                  f"{counted(self.skipped, 'skipped file')}; {self.seconds:.2f} s")
        if not self.published:
            return f"Read {counts} (not published under --strict: the live index is unchanged)"
        if self.unchanged:
            return f"Read {counts} (nothing changed: version {self.version} stays live)"
        changed = "".join(f"{change}; " for change in self.changes)
        return (f"Indexed {counts} (version {self.version}; {changed}"
                f"{self.rewritten} of {counted(self.lessons, 'lesson')} rewritten)")


Progress = Callable[[int, int, str], None]


def build_index(
    lessons_dir: Path,
    glossary_dir: Path | None,
    out: Path,
    base_url: str | None = None,
    progress: Progress | None = None,
    full: bool = False,
    strict: bool = False,
) -> BuildReport:
    """Build a complete new index version in ``out`` and make it the live one.

    A ``glossary_dir`` that is not a folder is refused, as a missing ``lessons_dir`` is: an
    index quietly built without the glossary someone named is worse than no new index. So
    is an ``out`` that is either folder, which the index would be written into. An ``out``
    inside the lessons folder is not read as lessons, so one that holds anything but an
    index (``index_store.not_an_index``: a lesson, say) is refused rather than its files
    left out without a word.
    Unless ``full``, what the live version's build cache holds is reused: unchanged lesson
    files are not parsed again and only changed lessons are written to Whoosh. A version
    that would answer every request as the live one does is not published
    (``index_store.same_as_live``): the live one stays, and with it its name, which the
    server's ETags are made of, so no client's or replica's copy is made stale for nothing.
    A ``full`` build always publishes: it is how an operator asks for every file anew.

    A ``strict`` build with any problem stops once the course and the glossary are read
    (every problem is known by then) and publishes nothing: a CI job that fails on a broken
    lesson must leave the live index as it was, not already serving the course without it.
    """
    started = time.perf_counter()
    out = Path(out)
    lessons_dir = Path(lessons_dir)
    if not lessons_dir.is_dir():
        raise FileNotFoundError(f"No lessons folder at {lessons_dir}")
    if glossary_dir is not None and not Path(glossary_dir).is_dir():
        raise FileNotFoundError(f"No glossary folder at {glossary_dir}")
    for folder, kind in ((lessons_dir, "lessons"), (glossary_dir, "glossary")):
        if folder is not None and out.resolve() == Path(folder).resolve():
            raise IndexInCourse(str(out), kind)
    if index_inside(out, lessons_dir) is not None and (others := index_store.not_an_index(out)):
        raise IndexAmongLessons(str(out), others)
    with index_store.build_lock(out), _no_cycle_collection():
        # The build's objects are freed when _build returns, before the collector is back.
        try:
            report = _build(lessons_dir, glossary_dir, out, base_url, progress, full, strict)
        except CacheDamaged:
            # Found part way through, when some entries were used already: begun again
            # without the cache (once the first try's traceback is let go), so that no
            # version is made of two builds' work.
            report = None
        if report is None:
            report = _build(lessons_dir, glossary_dir, out, base_url, progress, full, strict,
                            cache_damaged=True)
    return dataclasses.replace(report, seconds=time.perf_counter() - started)


def _build(lessons_dir: Path, glossary_dir: Path | None, out: Path, base_url: str | None,
           progress: Progress | None, full: bool, strict: bool,
           cache_damaged: bool = False) -> BuildReport:
    notes: list[str] = []
    live, reusable, live_manifest = _live_version(out, notes, full)
    previous = None if full else reusable
    cache = _live_cache(previous, live_manifest, cache_damaged, notes)
    name, tmp = index_store.new_version_dir(out)
    try:
        # One pool of processes for every stage, ended before the version is saved: a
        # process still forked from this one makes each page it touches a copied page.
        with parallel.shared_pool():
            read = read_course(lessons_dir, base_url=base_url, on_file=progress, cache=cache,
                               index_dir=out)
            docs = list(documents(read.course))
            glossary = find_terms(read.course, glossary_dir, cache, docs, read.own_keys)
            glossary_changed = _glossary_changed(glossary, cache)
            allow, allow_problems = course_allow(lessons_dir)
            problems = read.problems + tuple(allow_problems) + glossary.problems
            if strict and problems:
                shutil.rmtree(tmp)
                return BuildReport("", len(read.course.lessons), _sections(read), 0,
                                   glossary.term_count, problems, 0.0, published=False)
            whoosh = plan_whoosh(tmp, docs, partial(glossary.lesson_keys, read.keys, cache),
                                 glossary.terms_of, cache, previous)
            try:
                whoosh.start()  # a full build's segments are written meanwhile, elsewhere
                previous = _write_glossary(glossary, read, glossary_dir, tmp, live,
                                           cache, docs, previous, notes)
                index_store.flush([tmp / GLOSSARY_DB])  # while the segments are written
            except BaseException:
                whoosh.cancel()
                raise
            count, written = whoosh.finish()
        manifest = _manifest(name, read, problems, count, glossary.term_count)
        manifest["coverage_allow"] = allow
        if (previous is not None and cache.loaded
                and index_store.same_as_live(previous, tmp, manifest, {CACHE_FILE})):
            shutil.rmtree(tmp)
            return BuildReport(previous.name, len(read.course.lessons), _sections(read), count,
                               glossary.term_count, problems, 0.0, written, unchanged=True,
                               notes=tuple(notes))
        cache.save(tmp)
        index_store.publish(out, name, tmp, manifest, unsynced={CACHE_FILE},
                            linked_from=reusable, linked_manifest=live_manifest,
                            checksums=whoosh.checksums)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return BuildReport(name, len(read.course.lessons), _sections(read), count,
                       glossary.term_count, problems, 0.0, written, notes=tuple(notes),
                       changes=_changes(live_manifest, manifest, glossary_changed))


_GLOSSARY_READ = ("glossary", "entries read")
"""The build cache's entry for a digest of the glossary's entries, as the build read them."""


def _glossary_changed(glossary: GlossaryBuild, cache: BuildCache) -> bool:
    """Whether the glossary's entries (terms, definitions, aliases, anchors, lines) are not
    those the live version's build read, as its cache tells; False when it cannot tell.
    The version does not say: its glossary file holds what lessons define and mention too."""
    digest = fingerprint(glossary.entries)
    before = cache.previous(*_GLOSSARY_READ)
    cache.keep(*_GLOSSARY_READ, digest)
    return before is not None and before != digest


def _changes(live: dict, manifest: dict, glossary_changed: bool = False) -> tuple[str, ...]:
    """What ``manifest`` lists that the ``live`` version's did not (``BuildReport.changes``),
    and whether the glossary changed: none without a live version to compare with. Each
    input of the build that is no lesson file is named, so that a version that rewrote no
    lesson says why it was published."""
    if not live:
        return ()

    def sources(lessons: object) -> set[str]:
        return {x["source"] for x in lessons if isinstance(x, dict)
                and isinstance(x.get("source"), str)} if isinstance(lessons, list) else set()

    before, now = sources(live.get("lessons")), sources(manifest["lessons"])
    # A renamed file is a source gone and one come: with the same files, none (and the
    # manifests' anchors, 10,000 sections' worth, are not read for it).
    renamed = _renamed(live, manifest) if now != before else {}
    added = len(now - before) - len(renamed)
    removed = len(before - now) - len(renamed)
    parts = [(n, what) for n, what in ((added, "added"), (removed, "removed"),
                                       (len(renamed), "renamed")) if n]
    moved = [f"{counted(n, 'lesson') if i == 0 else n} {what}"  # "1 lesson added, 2 removed"
             for i, (n, what) in enumerate(parts)]
    changes = [", ".join(moved) + _renames(renamed)] if moved else []
    if live.get("problems") != manifest["problems"]:
        changes.append("the warnings changed")
    if glossary_changed:
        changes.append("the glossary changed")
    changes += _course_changes(live, manifest, renamed)
    return tuple(changes)


RENAMES_NAMED = 3
"""How many renamed lesson files the summary names; "and 9 more" after them."""


def _renamed(live: dict, manifest: dict) -> dict[tuple[str, str], tuple[str, str]]:
    """The lesson files renamed since the ``live`` version, as the coverage report knows a
    lesson across versions (``coverage_facts.renamed_lessons``: its slug kept, else its
    file's bytes): (old file, old slug) → (new file, new slug), in the new course's order."""
    before, now = published_in(live), published_in(manifest)
    old_slugs = {source: slug for slug, (_, _, source, _) in before.items()}
    order = {slug: n for n, slug in enumerate(now)}
    pairs = [((source, old_slugs[source]), (now[slug][2], slug))
             for source, slug in renamed_lessons(before, now).items()]
    return dict(sorted(pairs, key=lambda pair: order[pair[1][1]]))


def _renames(renamed: dict[tuple[str, str], tuple[str, str]]) -> str:
    """": 07-water.txt → 07-water-chemistry.txt (slug water → water-chemistry), …"."""
    if not renamed:
        return ""
    named = [f"{old} → {new}" + (f" (slug {old_slug} → {new_slug})" if new_slug != old_slug
                                 else "")
             for (old, old_slug), (new, new_slug) in list(renamed.items())[:RENAMES_NAMED]]
    if len(renamed) > RENAMES_NAMED:
        named.append(f"and {len(renamed) - RENAMES_NAMED} more")
    return ": " + ", ".join(named)


def _course_changes(live: dict, manifest: dict,
                    renamed: dict[tuple[str, str], tuple[str, str]] | None = None) -> list[str]:
    """What the course file (or ``--base-url``) changed: the course's title, slug or link,
    its modules, the ``[coverage]`` table, and the links of lessons the live version has too
    (a new base URL, or a new slug), a renamed file's lesson among them (``renamed``: the
    coverage report lists its link as moved too)."""
    course, before = manifest["course"], live.get("course")
    before = before if isinstance(before, dict) else {}
    named = {"title": "the course title", "slug": "the course slug", "url": "the course link"}
    changes = [f"{name} changed" for key, name in named.items()
               if before.get(key) != course.get(key)]
    if live.get("modules") != manifest["modules"]:
        changes.append("the modules changed")
    if live.get("coverage_allow", []) != manifest["coverage_allow"]:
        changes.append("the course file's [coverage] table changed")

    def links(lessons: object) -> dict[str, object]:
        return {x["source"]: x.get("url") for x in lessons if isinstance(x, dict)
                and isinstance(x.get("source"), str)} if isinstance(lessons, list) else {}

    old, new = links(live.get("lessons")), links(manifest["lessons"])
    for (old_source, _), (new_source, _) in (renamed or {}).items():
        old[new_source] = old.pop(old_source, None)  # the same lesson, under its file now
    moved = sum(1 for source, url in new.items() if source in old and old[source] != url)
    if moved:
        changes.append(f"{counted(moved, 'lesson link')} changed")
    return changes


def _live_version(out: Path, notes: list[str], full: bool = False
                  ) -> tuple[Path | None, Path | None, dict]:
    """The live version, whose broken anchors are carried over, and the same when its files
    may be reused too: not when another release wrote it; and the manifest of that one.
    One that cannot be read (its manifest, a file not the size the build wrote, a search
    index that does not open) or one a file of which was modified since
    (``changed_since_built``) is neither: nothing of it is read, and ``notes`` says so:
    that nothing of it is reused, or for a ``full`` build, which reuses nothing anyway, that
    the broken anchors it listed are not carried over. Its build cache is left to
    ``_live_cache``: a damaged one costs only itself."""
    live = index_store.previous_version(out)
    if live is None:
        return None, None, {}
    lost = "the broken anchors it listed are not carried over" if full else (
        "nothing of it is reused")
    try:
        manifest = index_store.open_manifest(live)
        check_search_index(live)
    except IndexIncompatible:
        return live, None, {}
    except IndexToRebuild as exc:
        notes.append(f"The live version {live.name} {exc.reason}; {lost}.")
        return None, None, {}
    changed = index_store.changed_since_built(live, manifest, {CACHE_FILE})
    if changed is not None:
        notes.append(f"The live version {live.name} has a file modified since its build wrote "
                     f"it ({changed}); {lost}.")
        return None, None, {}
    return live, live, manifest


def _live_cache(previous: Path | None, manifest: dict, damaged: bool,
                notes: list[str]) -> BuildCache:
    """The build cache ``previous`` left, or an empty one, with a note, when it was modified
    since its build wrote it (bytes written over: read, they gave a traceback, or worse, a
    build that reused them), cannot be read, or was found ``damaged`` by a build that had
    begun to use it. The build then does as without a cache: it reads and writes every
    lesson, and publishes its version, which brings a cache again."""
    if previous is None:
        return BuildCache()
    cache = BuildCache()
    if damaged:
        how = "is damaged"
    elif index_store.modified_since_built(previous, manifest, CACHE_FILE):
        how = "was modified since its build wrote it"
    else:
        cache = BuildCache.load(previous)
        how = "cannot be read"
    if not cache.loaded:
        notes.append(f"The build cache of the live version {previous.name} ({CACHE_FILE}) "
                     f"{how}; this build does without it.")
    return cache


def _write_glossary(glossary: GlossaryBuild, read: CourseRead, glossary_dir: Path | None,
                    tmp: Path, live: Path | None, cache: BuildCache, docs: list[Document],
                    previous: Path | None, notes: list[str]) -> Path | None:
    """``write_glossary``; written again without the live version when the live version's
    glossary file cannot be read (cut short, overwritten, emptied), so that no damage to the
    live version stops the build that replaces it. The version still to compare the new one
    with (``previous``, or None once the live one's glossary file proved damaged)."""
    try:
        write_glossary(glossary, read.course, glossary_dir, tmp, live, cache, docs, previous,
                       read.files)
        return previous
    except sqlite3.DatabaseError:
        if live is None:
            raise  # the file being written, not the live one's
    (tmp / GLOSSARY_DB).unlink(missing_ok=True)
    notes.append(f"The live version {live.name} cannot be read: its {GLOSSARY_PART} is "
                 "damaged; this version's is written anew, without the broken anchors the "
                 "live one listed.")
    write_glossary(glossary, read.course, glossary_dir, tmp, None, cache, docs, None,
                   read.files)
    return None


def _sections(read: CourseRead) -> int:
    return sum(len(lesson.sections) for lesson in read.course.lessons)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """A build makes millions of objects (lessons, sections, rows, postings) that live until
    it ends. Python's cycle collector walked them again and again and freed none of them: a
    fifth of a one-lesson rebuild at 100,000 sections. Reference counting still frees all
    the rest as it goes; the collector runs again once the build is over."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _manifest(name: str, read: CourseRead, problems: tuple[Problem, ...], documents: int,
              terms: int) -> dict:
    course = read.course
    return {
        "format": index_store.FORMAT,
        "version": name,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "course": {"slug": course.info.slug, "title": course.info.title, "url": course.info.url},
        "counts": {
            "lessons": len(course.lessons),
            "sections": sum(len(x.sections) for x in course.lessons),
            "documents": documents,
            "terms": terms,
            "warnings": len(problems),
            "skipped": sum(1 for p in problems if p.skipped),
        },
        "modules": [
            {"index": m.index, "slug": m.slug, "title": m.title} for m in course.modules
        ],
        "lessons": [
            {
                "slug": x.slug,
                "title": x.title,
                "url": x.url,
                "position": x.position,
                "module": x.module.slug if x.module else None,
                "module_title": x.module.title if x.module else None,
                "minutes": x.minutes,
                "key_idea": x.key_idea,
                "source": x.source,
                "format": x.format,
                "sections": len(x.sections),
                "anchors": list(x.anchors),
                "file_sha256": read.files.get(x.slug, ""),
            }
            for x in course.lessons
        ],
        "problems": [str(p) for p in problems],
    }
