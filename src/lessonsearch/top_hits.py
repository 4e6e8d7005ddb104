"""The best hits of a query, equal scores in course order, as Whoosh's top-N collector
finds them (with its block skipping).

Whoosh keeps the lower document number among equal scores; document numbers follow the
order segments were written, which an incremental build changes. Sorting the page
afterwards was not enough: with two sections tied at the page's edge, page 1 (a heap of 10)
and page 2 (a heap of 20) could keep different ones, and a reader would see one section
twice and the other never. Here the heap itself orders ties by the lesson's position and
the section's place in it, read once per open version from the index's columns.
"""

from __future__ import annotations

from array import array
from heapq import heappush, heapreplace

from whoosh.collectors import TopCollector

SECTIONS_PER_LESSON = 1 << 16


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
    not decide them) broken by ``order``, then by docnum."""

    def __init__(self, order: array, limit: int):
        super().__init__(limit=limit)
        self._order = order

    def _collect(self, global_docnum, score):
        items = self.items
        self.total += 1
        entry = (round(score, 9), -self._order[global_docnum], -global_docnum)
        if len(items) < self.limit:
            heappush(items, entry)
        elif entry > items[0]:
            heapreplace(items, entry)
            # A block whose best equals the lowest kept score may still hold an earlier tie.
            self.minscore = items[0][0] - 1e-8
        else:
            return 0
        return 0 - score

    def remove(self, global_docnum):
        raise NotImplementedError("hits are filtered before they are collected")

    def best(self) -> list[tuple[float, int]]:
        """(score, docnum) of the hits kept, best first.

        Not ``results()``: Whoosh's Results object counts every match again when iterated.
        """
        return [(score, -negated) for score, _, negated in sorted(self.items, reverse=True)]

    def results(self):
        return self._results(self.best())
