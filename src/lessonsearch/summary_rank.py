"""A lesson's summary (its key idea and short answer) and its check question ranked as
parts of their lesson.

A summary is a few sentences that restate the lesson's key words, so BM25's length
normalisation scored it above the sections that teach them: "running total" put the
transformer block's summary, which says it twice in 40 words, above "Adding instead of
replacing", which teaches it. The summary links to the lesson's top; a reader searching for
what a lesson teaches wants the section that teaches it. Yet a summary that matches well says
the lesson is about the query: "what's a token?" finds the tokens lesson first through its
summary's answer, by 0.01 ahead of a section on attention.

So a summary and its lesson's best section trade places where the summary scores higher: the
section takes the summary's score and place, the summary the section's. The lesson ranks as
high as before, its best section first; the scores a page holds are the same, only who holds
them changes, so the page's last score and the number of matches do not change. A summary no
section of whose lesson matches keeps its own score: a word only the key idea writes still
finds the lesson, as high as the summary's words put it.

A check question is short too, and asks about the word its lesson teaches: "tokenizer" found
"Check: Why do most modern tokenizers split…" above "Text arrives as pieces", and "residual
connection" the transformer block's check above "Adding instead of replacing". It is a part
of its lesson the same way. Where a lesson's summary and check both score above its best
section, the higher of the two trades with it (the first in course order, the check, on a
tie), and the other keeps its score: one trade a lesson, so the lesson still ranks where its
best document put it and the page's scores stay the same.
"""

from __future__ import annotations

from array import array

from whoosh import query as wq

from .top_hits import SECTIONS_PER_LESSON, page_rank, ranks_above
from .whoosh_index import PART

Scores = dict[int, float]


class LessonParts:
    """The summaries and check questions of one open index version, and their lessons'
    sections."""

    def __init__(self, searcher, order: array):
        """``order``: each document's place in the course (``top_hits.course_order``), whose
        lesson part is the lesson's position: positions never repeat (``course.py``)."""
        self._order = order
        parts = [*searcher.docs_for_query(wq.Term(PART, "summary")),
                 *searcher.docs_for_query(wq.Term(PART, "check"))]
        self.lesson_of: dict[int, int] = {p: order[p] // SECTIONS_PER_LESSON for p in parts}
        """Each summary's and check's lesson, by its place in ``order``."""
        sections: dict[int, list[int]] = {lesson: [] for lesson in self.lesson_of.values()}
        if sections:
            for docnum, place in enumerate(order):
                found = sections.get(place // SECTIONS_PER_LESSON)
                if found is not None and docnum not in self.lesson_of:
                    found.append(docnum)
        self._sections = {lesson: tuple(sorted(found, key=order.__getitem__))
                          for lesson, found in sections.items()}
        """The sections of each lesson that has a summary or a check, in course order."""

    def beside(self, docnums: set[int]) -> set[int]:
        """The sections of the lessons of the summaries and checks among ``docnums``: one of
        them may trade its score with such a part."""
        return {section for lesson in {self.lesson_of[d] for d in docnums if d in self.lesson_of}
                for section in self._sections[lesson]}

    def trade(self, scores: Scores, floor: float = float("-inf")) -> None:
        """Swap in ``scores`` (every match of a query, changed in place) the score of each
        lesson's best part (summary or check) scoring ``floor`` or more with that of its
        best section, where the part's is higher. (Below the page's last score a part need
        not be looked at: both it and its section stay off the page.)"""
        if len(self.lesson_of) < len(scores):
            found = [p for p in self.lesson_of if p in scores and scores[p] >= floor]
        else:
            found = [d for d, score in scores.items() if score >= floor and d in self.lesson_of]
        best_part: dict[int, int] = {}
        for part in found:
            lesson = self.lesson_of[part]
            other = best_part.get(lesson)
            if other is None or (page_rank(scores[part], self._order, part)
                                 > page_rank(scores[other], self._order, other)):
                best_part[lesson] = part
        for lesson, part in best_part.items():
            best = best_section(scores, self._sections[lesson])
            if best is not None and ranks_above(scores[part], scores[best]):
                scores[part], scores[best] = scores[best], scores[part]


def best_section(scores: Scores, sections: tuple[int, ...]) -> int | None:
    """The matched section of ``sections`` (in course order) with the highest score, the
    first on a tie, as a page orders them."""
    found = None
    for docnum in sections:
        if docnum in scores and (found is None or ranks_above(scores[docnum], scores[found])):
            found = docnum
    return found
