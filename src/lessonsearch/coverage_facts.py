"""Build-time facts for the coverage report that the server could not work out later.

* Broken anchors: the links an earlier version published that this build no longer has.
  Only a build sees both the previous live version and the new course. An anchor stays on the
  list (carried from version to version) until it comes back or an editor allows it, because
  readers' bookmarks and embedding sites keep the link whatever we rebuild in between.
* Glossary conflicts: ``read_glossary`` keeps the first of two different definitions of one
  term and says so in a Problem; here that Problem becomes both texts side by side.
"""

from __future__ import annotations

from pathlib import Path

from . import index_store
from .glossary_source import read_glossary_text
from .glossary_table import BrokenAnchor, GlossaryConflict, load_coverage_tables
from .model import Course, GlossaryEntry, GlossaryGap, Problem
from .term_forms import term_key

Published = dict[str, tuple[str, tuple[str, ...]]]
"""Each lesson's link and the anchors of its sections, by slug (what a manifest lists)."""


def published_anchors(course: Course) -> Published:
    return {lesson.slug: (lesson.url, lesson.anchors)
            for lesson in course.lessons}


def find_broken_anchors(now: Published, live: Path | None,
                        before: Published | None = None) -> tuple[BrokenAnchor, ...]:
    """Section links of the ``live`` version (and the ones it still listed) that the new
    course (``now``: its ``published_anchors``) lacks; none without a live version.

    ``before`` is what the live version published, when the caller kept it; else it is read
    from the version's manifest (nothing, from one that cannot be read). A live glossary file
    that cannot be read raises ``sqlite3.DatabaseError``: the build then carries none over.
    """
    if live is None:
        return ()
    anchors: dict[str, set[str]] = {}  # a page → the anchors it has now
    for url, lesson_anchors in now.values():
        anchors.setdefault(_page(url), set()).update(lesson_anchors)
    broken: dict[str, BrokenAnchor] = {}
    for old in load_coverage_tables(live, only_anchors=True).broken_anchors:
        page, _, anchor = old.old_url.partition("#")
        if anchor not in anchors.get(page, ()):
            broken[old.old_url] = old
    if before is None:
        before = _published(live)
    for slug, published in before.items():
        if now.get(slug) == published:
            continue  # the same page with the same anchors
        page = _page(published[0])
        have = anchors.get(page, ())
        for anchor in published[1]:
            if anchor not in have and (url := f"{page}#{anchor}") not in broken:
                broken[url] = BrokenAnchor(slug, anchor, url, live.name)
    return tuple(broken.values())


def _published(version: Path) -> Published:
    """What a version's manifest lists of its lessons' links; nothing of what a damaged one
    (not JSON, not the object a build writes) holds."""
    try:
        manifest = index_store.read_manifest(version)
    except (OSError, ValueError):
        return {}
    lessons = manifest.get("lessons") if isinstance(manifest, dict) else None
    return {x["slug"]: (x["url"], tuple(x.get("anchors", [])))
            for x in (lessons if isinstance(lessons, list) else [])
            if isinstance(x, dict) and isinstance(x.get("slug"), str)
            and isinstance(x.get("url"), str) and isinstance(x.get("anchors", []), list)}


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
