"""The best hits of a query, equal scores in course order, as Whoosh's top-N collector
finds them, but from every match: no block or matcher is skipped by score.

Whoosh keeps the lower document number among equal scores; document numbers follow the
order segments were written, which an incremental build changes. Sorting the page
afterwards was not enough: with two sections tied at the page's edge, page 1 (a heap of 10)
and page 2 (a heap of 20) could keep different ones, and a reader would see one section
twice and the other never. Here the heap itself orders ties by the lesson's position and
the section's place in it, read once per open version from the index's columns.

Whoosh's collector skips what it judges cannot reach the page: posting blocks whose best
score is below the page's lowest (``skip_to_quality``), and whole matchers when their best
(``max_quality``) is (``replace(minquality)``). Under NOT that judgement is wrong: a NOT's
matcher scores 1 for every section it lets through, yet gives the excluded word's best
score as its own best, so matchers that could still reach the page were dropped. On the
2,500-section course of ``test_match_count.py`` (six segments), ``window OR -head`` lost its
third section and ``temperature OR -head`` its ninth, and handed ``(attention OR cache)
-model`` (which the block scorer takes) it lost the best, while a search that scored every
match found them. So this collector never asks for either: the queries that reach it are
the rare ones our own block scorer (``word_scoring``) does not take, and getting them right
matters more than the matchers skipped.
"""

from __future__ import annotations

from array import array
from heapq import heappush, heapreplace
from typing import TYPE_CHECKING

from whoosh.collectors import TopCollector

if TYPE_CHECKING:
    from .summary_rank import LessonParts

SECTIONS_PER_LESSON = 1 << 16


def ranks_above(score: float, other: float) -> bool:
    """Whether ``score`` ranks above ``other`` whatever their places: scores equal to 9
    decimals tie."""
    return round(score, 9) > round(other, 9)


def page_rank(score: float, order: array, docnum: int) -> tuple[float, int, int]:
    """Where a document scoring ``score`` stands on a page (the higher, the sooner): by its
    score to 9 decimals, then in course order (``order``), then by docnum."""
    return round(score, 9), -order[docnum], -docnum


def course_order(searcher) -> array:
    """Each document's place in the course (lesson position, then section), by docnum."""
    order = array("q")
    for reader in (leaf for leaf, _ in searcher.reader().leaf_readers()):
        if not reader.doc_count_all():
            continue  # an empty index has no columns
        positions = reader.column_reader("position")
        sections = reader.column_reader("section")
        for docnum in range(reader.doc_count_all()):
            section = min(int(sections[docnum] or 0), SECTIONS_PER_LESSON - 1)
            order.append(int(positions[docnum] or 0) * SECTIONS_PER_LESSON + section)
    return order


class TopInCourseOrder(TopCollector):
    """Whoosh's ``TopCollector`` with ties (scores equal to 9 decimals, so float noise does
    not decide them) broken by ``order``, then by docnum, and nothing skipped by score: its
    ``minscore``, which Whoosh hands the matchers to prune with, stays 0.

    ``parts``: the index's lesson summaries and check questions (``summary_rank``). They,
    and the best section so far of a lesson that has one, are held until every match is in;
    then a lesson's best part and best section trade scores where the part's is higher, as
    the block scorer has them. ``boost`` multiplies the scores of the documents it holds
    (``WordScorer.top``)."""

    def __init__(self, order: array, limit: int, parts: LessonParts | None = None,
                 boost: dict[int, float] | None = None):
        super().__init__(limit=limit, usequality=False)
        self._boost = boost or {}
        self._order = order
        self._parts = parts.lesson_of if parts else {}
        self._lessons = frozenset(self._parts.values())
        self._held: list[tuple[int, float]] = []
        self._best_in: dict[int, tuple[int, float]] = {}

    def _collect(self, global_docnum, score):
        self.total += 1
        if global_docnum in self._boost:
            score *= self._boost[global_docnum]
        if self._lessons:
            if global_docnum in self._parts:
                self._held.append((global_docnum, score))
                return 0
            lesson = self._order[global_docnum] // SECTIONS_PER_LESSON
            if lesson in self._lessons:
                best = self._best_in.get(lesson)
                if best is not None and not self._above(global_docnum, score, *best):
                    return self._keep(global_docnum, score)
                self._best_in[lesson] = (global_docnum, score)
                return 0 if best is None else self._keep(*best)
        return self._keep(global_docnum, score)

    def _above(self, docnum: int, score: float, other: int, other_score: float) -> bool:
        return self._entry(docnum, score) > self._entry(other, other_score)

    def _entry(self, docnum: int, score: float) -> tuple[float, int, int]:
        return page_rank(score, self._order, docnum)

    def _keep(self, global_docnum, score):
        items = self.items
        entry = self._entry(global_docnum, score)
        if len(items) < self.limit:
            heappush(items, entry)
        elif entry > items[0]:
            heapreplace(items, entry)
        else:
            return 0
        return 0 - score

    def remove(self, global_docnum):
        raise NotImplementedError("hits are filtered before they are collected")

    def best(self) -> list[tuple[float, int]]:
        """(score, docnum) of the hits kept, best first.

        Not ``results()``: Whoosh's Results object counts every match again when iterated.
        """
        top: dict[int, tuple[int, float]] = {}  # each lesson's best part
        for part, score in self._held:
            lesson = self._parts[part]
            if lesson not in top or self._above(part, score, *top[lesson]):
                top[lesson] = (part, score)
        for part, score in self._held:
            lesson = self._parts[part]
            if top[lesson][0] == part and (section := self._best_in.pop(lesson, None)):
                if ranks_above(score, section[1]):
                    score, section = section[1], (section[0], score)
                self._keep(*section)
            self._keep(part, score)
        for section in self._best_in.values():
            self._keep(*section)
        self._held, self._best_in = [], {}
        return [(score, -negated) for score, _, negated in sorted(self.items, reverse=True)]

    def results(self):
        return self._results(self.best())
