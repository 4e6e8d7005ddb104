"""Search results as the HTML page shows them: grouped by lesson, linked to the matched words.

The JSON API pages through sections; a reader thinks in lessons. So the page gathers the best
``MAX_HITS`` sections, groups them by lesson in rank order (a lesson ranks where its best
section does) and pages through lessons, showing each lesson's first few sections and a link
to the same search narrowed to that lesson for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..searcher import MAX_LIMIT, Searcher, SearchHit, SearchResponse

MAX_HITS = 200
"""Sections gathered per query: four searches of 50 at most; enough for any reader."""



@dataclass(frozen=True, slots=True)
class ShownHit:
    title: str
    """The heading path ("Setup › Install"), or what the passage is when it has no heading."""
    href: str
    """The section's URL as the API gives it (``lesson-url#anchor``), without the matched
    words as a ``:~:text=`` directive: a browser looks for a directive's words from the top
    of the page, ahead of the anchor, and stays at the top when they are not there. Words
    written more than once on the page, or not written there as the index reads them (a
    table's cells, a list's items), took the reader to another section or to none; the
    anchor always lands on the section. (A passage with no anchor keeps the directive of
    its first words that the index made for it.)"""
    snippet: Markup
    """Built by the searcher from escaped text and ``<mark>`` tags only; safe to insert."""
    in_title: Markup | None = None
    """The lesson's title, its words of the query marked, for a hit found through it alone
    (``SearchHit.matched_in_title``): shown above the snippet, which marks nothing."""


@dataclass(frozen=True, slots=True)
class LessonGroup:
    lesson: str
    title: str
    module_title: str | None
    url: str
    hits: tuple[ShownHit, ...]
    more: int
    """Matching sections of this lesson not shown here."""


@dataclass(frozen=True, slots=True)
class GroupedResults:
    response: SearchResponse
    """The first page's response: total, terms, suggestion, relaxed."""
    groups: tuple[LessonGroup, ...]
    """This page's groups."""
    lessons: int
    """Lessons with at least one match (among the first ``MAX_HITS`` sections)."""
    page: int
    pages: int
    truncated: bool
    """More sections matched than were gathered."""
    past_the_end: int | None = None
    """The page a link asked for when it is after the last (a stale link, kept after the
    course changed, or one edited by hand): the last page is shown, and says so."""


def grouped_search(searcher: Searcher, text: str, page: int, per_page: int, per_group: int,
                   lesson: str | None = None, module: str | None = None) -> GroupedResults:
    first = searcher.search(text, MAX_LIMIT, 1, lesson, module)
    hits = list(first.results)
    number = 1
    while len(hits) < min(first.total, MAX_HITS) and number * MAX_LIMIT < MAX_HITS:
        number += 1
        more = searcher.search(text, MAX_LIMIT, number, lesson, module)
        if not more.results:
            break
        hits.extend(more.results)
    by_lesson: dict[str, list[SearchHit]] = {}
    for hit in hits:
        by_lesson.setdefault(hit.lesson, []).append(hit)
    shown_per_group = len(hits) if lesson else per_group
    pages = max(1, -(-len(by_lesson) // per_page))
    asked, page = page, min(page, pages)  # past the end: the last page, labelled so
    chosen = list(by_lesson.values())[(page - 1) * per_page: page * per_page]
    groups = tuple(_group(lesson_hits, shown_per_group) for lesson_hits in chosen)
    return GroupedResults(first, groups, len(by_lesson), page, pages,
                          truncated=first.total > len(hits),
                          past_the_end=asked if asked > page and by_lesson else None)


def _group(hits: list[SearchHit], shown: int) -> LessonGroup:
    top = hits[0]
    return LessonGroup(
        lesson=top.lesson,
        title=top.lesson_title,
        module_title=top.module_title,
        url=top.url.split("#", 1)[0],
        hits=tuple(_shown(hit) for hit in hits[:shown]),
        more=max(0, len(hits) - shown),
    )


def _shown(hit: SearchHit) -> ShownHit:
    if hit.heading_path:
        title = " › ".join(hit.heading_path)
    elif hit.heading:
        title = hit.heading
    else:
        title = "Passage" if ":~:" in hit.url else "Start of the lesson"
    in_title = None if hit.matched_in_title is None else Markup(hit.matched_in_title)
    return ShownHit(title, hit.url, Markup(hit.snippet), in_title)

