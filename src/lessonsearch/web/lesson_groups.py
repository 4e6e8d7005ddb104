"""Search results as the HTML page shows them: grouped by lesson, linked to the matched words.

The JSON API pages through sections; a reader thinks in lessons. So the page gathers the best
``MAX_HITS`` sections, groups them by lesson in rank order (a lesson ranks where its best
section does) and pages through lessons, showing each lesson's first few sections and a link
to the same search narrowed to that lesson for the rest.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from urllib.parse import quote

from markupsafe import Markup

from ..model import text_fragment
from ..searcher import MAX_LIMIT, Searcher, SearchHit, SearchResponse

MAX_HITS = 200
"""Sections gathered per query: four searches of 50 at most; enough for any reader."""

_FIRST_MARKS = re.compile(r"<mark>[^<]*</mark>(?:\s*<mark>[^<]*</mark>)*")
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True, slots=True)
class ShownHit:
    title: str
    """The heading path ("Setup › Install"), or what the passage is when it has no heading."""
    href: str
    """The section's URL, plus a ``:~:text=`` directive for the first marked words."""
    snippet: Markup
    """Built by the searcher from escaped text and ``<mark>`` tags only; safe to insert."""


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
    page = min(page, pages)  # a stale link past the end shows the last page, labelled so
    chosen = list(by_lesson.values())[(page - 1) * per_page: page * per_page]
    groups = tuple(_group(lesson_hits, shown_per_group) for lesson_hits in chosen)
    return GroupedResults(first, groups, len(by_lesson), page, pages,
                          truncated=first.total > len(hits))


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
    return ShownHit(title, link_to_words(hit), Markup(hit.snippet))


def link_to_words(hit: SearchHit) -> str:
    """``url#anchor:~:text=prefix-,words`` so the browser scrolls to the matched words.

    The words are the snippet's first run of marked words; up to three words before them in
    the same passage go in as a prefix, so the browser skips earlier occurrences elsewhere on
    the page. Browsers that cannot match the directive fall back to the plain ``#anchor``.
    URLs that already carry a directive (a passage with no anchor) are left alone.
    """
    if ":~:" in hit.url:
        return hit.url
    found = _FIRST_MARKS.search(hit.snippet)
    if found is None:
        return hit.url
    words = _plain(found.group(0))
    passage = hit.snippet[: found.start()].rsplit(" … ", 1)[-1]
    before = _plain(passage).split()[-3:]
    directive = text_fragment(words)
    if before:
        prefix = quote(" ".join(before), safe="").replace("-", "%2D")
        directive = directive.replace(":~:text=", f":~:text={prefix}-,", 1)
    return f"{hit.url}{directive}" if "#" in hit.url else f"{hit.url}#{directive}"


def _plain(snippet_html: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", snippet_html)).split())
