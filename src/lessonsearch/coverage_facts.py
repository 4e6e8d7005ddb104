"""Build-time facts for the coverage report that the server could not work out later.

* Broken anchors: the links an earlier version published that this build no longer has.
  Only a build sees both the previous live version and the new course. An anchor stays on the
  list (carried from version to version) until it comes back or an editor allows it, because
  readers' bookmarks and embedding sites keep the link whatever we rebuild in between.
* Moved links: the lessons whose link changed (a new base URL or slug) while the lesson
  stayed. Its anchors are not broken: the site needs a redirect from the old link, and the
  report says so once per lesson rather than once per anchor. A lesson whose file was
  renamed and whose slug changed with it is the same lesson when its file's bytes are.
* Broken pages: a lesson page an earlier version published that no lesson has now (the
  lesson removed, or renamed and edited at once) is a broken link as its anchors are, listed
  once with no anchor: a lesson without headings has no anchor to say so.
* Glossary conflicts: ``read_glossary`` keeps the first of two different definitions of one
  term and says so in a Problem; here that Problem becomes both texts side by side.
"""

from __future__ import annotations

from pathlib import Path

from . import index_store
from .glossary_source import read_glossary_text
from .glossary_table import BrokenAnchor, GlossaryConflict, MovedLink, load_coverage_tables
from .model import Course, GlossaryEntry, GlossaryGap, Problem
from .term_forms import term_key

Published = dict[str, tuple[str, tuple[str, ...], str, str]]
"""Each lesson's link, the anchors of its sections, its file and the SHA-256 of the file's
bytes (empty where not known), by slug (what a manifest lists)."""


def published_anchors(course: Course, files: dict[str, str] | None = None) -> Published:
    """``files``: the SHA-256 of each lesson's file, by slug (``CourseRead.files``)."""
    files = files or {}
    return {lesson.slug: (lesson.url, lesson.anchors, lesson.source, files.get(lesson.slug, ""))
            for lesson in course.lessons}


class _Lessons:
    """The new course's lessons, found by what a lesson of an earlier version was known by:
    its file first (a new slug keeps it), else its slug (a renamed file keeps that), else,
    for a file renamed with a new slug, the file with the same bytes (``renamed``); and the
    anchors each page has now, so a link that still leads somewhere is no broken one."""

    def __init__(self, now: Published, renamed: dict[str, str] | None = None) -> None:
        self.by_slug = now
        self.by_source = {source: slug for slug, (_, _, source, _) in now.items() if source}
        self.renamed = renamed or {}
        self.pages: dict[str, set[str]] = {}
        self.anchors: dict[str, frozenset[str]] = {}  # by slug, for the lessons looked in
        for url, anchors, *_ in now.values():
            self.pages.setdefault(_page(url), set()).update(anchors)

    def find(self, source: str, slug: str) -> str | None:
        """The slug now of the lesson that was read from ``source`` or called ``slug``."""
        found = self.by_source.get(source) if source else None
        if found is None and source:
            found = self.renamed.get(source)
        return found or (slug if slug in self.by_slug else None)

    def has(self, slug: str | None, old_url: str) -> bool:
        """Whether the section linked as ``old_url`` is still there: in its lesson (``slug``,
        wherever the lesson's link is now), or at that very link."""
        page, _, anchor = old_url.partition("#")
        if not anchor:  # the lesson's page itself: there while the lesson is, or another
            return slug is not None or page in self.pages
        if slug is not None:
            if slug not in self.anchors:  # a set, made once: a long lesson checks each anchor
                self.anchors[slug] = frozenset(self.by_slug[slug][1])
            if anchor in self.anchors[slug]:
                return True
        return anchor in self.pages.get(page, ())

    def link(self, slug: str | None, old_url: str) -> str:
        """The link now of the section linked as ``old_url``: its lesson's page now and the
        anchor; ``old_url`` itself for a lesson the course no longer has."""
        if slug is None:
            return old_url
        return f"{_page(self.by_slug[slug][0])}#{old_url.partition('#')[2]}"


LinkChanges = tuple[tuple[BrokenAnchor, ...], tuple[MovedLink, ...]]


def find_broken_anchors(now: Published, live: Path | None,
                        before: Published | None = None) -> LinkChanges:
    """Section links of the ``live`` version (and the ones it still listed) that the new
    course (``now``: its ``published_anchors``) lacks, and the lessons whose link changed
    since (and the ones it still listed); none without a live version. A lesson page no
    lesson has now is listed too, once, as a ``BrokenAnchor`` with no anchor.

    A lesson is known across versions by its file, else its slug, else (file and slug both
    new) by its file's bytes (``_renamed``), not by its link: a new base URL or slug moves
    the lesson's links, which is said once per lesson (``MovedLink``), and breaks none of
    its anchors. A broken anchor it listed is listed
    again under the lesson's slug and link now, once, with the link it was last published
    at; a move it listed stays until the lesson's link is the old one again, to the lesson's
    link now (a link moved twice needs a redirect from each old one).

    ``before`` is what the live version published, when the caller kept it; else it is read
    from the version's manifest (nothing, from one that cannot be read). A live glossary file
    that cannot be read raises ``sqlite3.DatabaseError``: the build then carries none over.
    """
    if live is None:
        return (), ()
    if before is None:
        before = _published(live)
    lessons = _Lessons(now, _renamed(before, now))
    carried = load_coverage_tables(live, only_anchors=True)
    broken: dict[str, BrokenAnchor] = {}  # by the link now
    for old in carried.broken_anchors:
        source = old.source or before.get(old.lesson, ("", (), "", ""))[2]
        slug = lessons.find(source, old.lesson)
        if not lessons.has(slug, old.old_url):
            url = lessons.link(slug, old.old_url)
            broken.setdefault(url, BrokenAnchor(
                slug or old.lesson, old.anchor, old.old_url, old.last_seen,
                lessons.by_slug[slug][2] if slug else source, url))
    moved: dict[tuple[str, str], MovedLink] = {}  # by the lesson's file or slug, old link
    for old in carried.moved:
        if (slug := lessons.find(old.source, old.lesson)) is not None:
            _move(moved, lessons, slug, old.old_url, old.last_seen)
    for old_slug, published in before.items():
        if now.get(old_slug) == published:
            continue  # the same lesson at the same link with the same anchors
        url, anchors, source, _ = published
        slug = lessons.find(source, old_slug)
        if slug is not None:
            _move(moved, lessons, slug, _page(url), live.name)
        elif _page(url) not in lessons.pages:  # the lesson and its page are gone
            broken.setdefault(_page(url), BrokenAnchor(old_slug, "", _page(url), live.name,
                                                       source, _page(url)))
        for anchor in anchors:
            old_url = f"{_page(url)}#{anchor}"
            if not lessons.has(slug, old_url):
                link = lessons.link(slug, old_url)
                broken.setdefault(link, BrokenAnchor(
                    slug or old_slug, anchor, old_url, live.name,
                    lessons.by_slug[slug][2] if slug else source, link))
    return tuple(broken.values()), tuple(moved.values())


def renamed_lessons(before: Published, now: Published) -> dict[str, str]:
    """The lessons whose file was renamed, by the old file: their slug now. A lesson is known
    across versions as ``find_broken_anchors`` knows it (``_Lessons.find``): a file gone
    whose slug a file new in ``now`` has (``07-water.txt`` as ``08-water.txt``, or one whose
    front matter names its slug), else whose bytes a file new in ``now`` with a new slug has
    (``_renamed``). The build's summary says so, rather than one lesson added and one
    removed."""
    sources_before = {source for _, _, source, _ in before.values() if source}
    sources_now = {source for _, _, source, _ in now.values() if source}
    by_bytes = _renamed(before, now)
    found: dict[str, str] = {}
    for slug, (_, _, source, _) in before.items():
        if not source or source in sources_now:
            continue  # no file known, or the file is still there
        new = by_bytes.get(source)
        if new is None and slug in now and now[slug][2] and now[slug][2] not in sources_before:
            new = slug
        if new is not None:
            found[source] = new
    return found


def _renamed(before: Published, now: Published) -> dict[str, str]:
    """The lessons whose file was renamed and whose slug changed with it, by the old file:
    their slug now. Such a lesson is the old one when its file's bytes are the same, and
    no other file, gone or new, has those bytes: a page that merely shares its headings
    with another (``Summary``, ``Exercises``) is no move."""
    sources_before = {source for _, _, source, _ in before.values()}
    sources_now = {source for _, _, source, _ in now.values()}
    gone: dict[str, list[str]] = {}  # by the file's digest: the old files
    for slug, (_, _, source, digest) in before.items():
        if digest and source and source not in sources_now and slug not in now:
            gone.setdefault(digest, []).append(source)
    added: dict[str, list[str]] = {}  # by the file's digest: the new slugs
    for slug, (_, _, source, digest) in now.items():
        if digest in gone and source not in sources_before and slug not in before:
            added.setdefault(digest, []).append(slug)
    return {gone[digest][0]: slugs[0] for digest, slugs in added.items()
            if len(slugs) == 1 and len(gone[digest]) == 1}


def _move(moved: dict[tuple[str, str], MovedLink], lessons: _Lessons, slug: str,
          old_url: str, last_seen: str) -> None:
    """Note that lesson ``slug`` was at ``old_url``, unless it is there now or this move is
    noted already (the one carried over, which was seen first)."""
    url, _, source, _ = lessons.by_slug[slug]
    if _page(url) != old_url:
        moved.setdefault((source or slug, old_url),
                         MovedLink(slug, source, old_url, _page(url), last_seen))


def _published(version: Path) -> Published:
    """What a version's manifest lists of its lessons' links; nothing of what a damaged one
    (not JSON, not the object a build writes) holds."""
    try:
        manifest = index_store.read_manifest(version)
    except (OSError, ValueError):
        return {}
    return published_in(manifest)


def published_in(manifest: object) -> Published:
    """What a manifest lists of its lessons' links, files and their bytes' digests."""
    lessons = manifest.get("lessons") if isinstance(manifest, dict) else None
    return {x["slug"]: (x["url"], tuple(x.get("anchors", [])), _text(x.get("source")),
                        _text(x.get("file_sha256")))
            for x in (lessons if isinstance(lessons, list) else [])
            if isinstance(x, dict) and isinstance(x.get("slug"), str)
            and isinstance(x.get("url"), str) and isinstance(x.get("anchors", []), list)}


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _page(url: str) -> str:
    """The URL without its fragment: a section's link is ``page#anchor`` (``link_to``)."""
    return url.split("#", 1)[0]


def glossary_conflicts(
    problems: tuple[Problem, ...], entries: tuple[GlossaryEntry, ...], glossary_dir: Path | None
) -> tuple[GlossaryConflict, ...]:
    """The glossary reader's duplicate-definition warnings, with both definitions' text;
    each named as the entry kept spells the term, as its row in the report is (a warning
    names the spelling written at its own line)."""
    kept = {entry.source: entry for entry in entries}
    conflicts = []
    for problem in problems:
        if not isinstance(problem, GlossaryGap) or problem.kept is None or problem.line is None:
            continue
        other = f"{problem.path}:{problem.line}"
        first = kept.get(problem.kept)
        conflicts.append(GlossaryConflict(
            term=first.term if first else problem.term,
            kept=problem.kept,
            kept_text=first.definition if first else "",
            other=other,
            other_text=_definition_at(glossary_dir, problem.path, problem.line),
        ))
    return tuple(conflicts)


def glossary_stubs(problems: tuple[Problem, ...], entries: tuple[GlossaryEntry, ...]
                   ) -> tuple[tuple[str, str], ...]:
    """Each term the glossary writes with no definition (a term line above an empty ``:``,
    a one-term file of front matter alone), and its ``file:line``, in file order: an
    editor's stub, which the coverage report lists as needing a definition. Readers are not
    shown it (a card with no definition says nothing); a stub of a term that another entry
    defines is no gap, and is not listed."""
    defined = {term_key(entry.term) for entry in entries}
    stubs: dict[str, tuple[str, str]] = {}
    for problem in problems:
        if not isinstance(problem, GlossaryGap) or problem.kept is not None or (
                problem.line is None):
            continue
        if (key := term_key(problem.term)) not in defined:
            stubs.setdefault(key, (problem.term, f"{problem.path}:{problem.line}"))
    return tuple(stubs.values())


def _definition_at(glossary_dir: Path | None, shown: str, line: int) -> str:
    """The definition written at ``shown:line`` (``shown`` starts with the folder's name)."""
    if glossary_dir is None:
        return ""
    path = Path(glossary_dir).joinpath(*Path(shown).parts[1:])
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return ""
    drafts, _ = read_glossary_text(text, shown)
    draft = next((d for d in drafts if d.line == line), None)
    return "\n\n".join(p for p in draft.paragraphs if p) if draft else ""
