"""A lesson's summary (its key idea and short answer) ranked as a part of its lesson.

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
finds the lesson, as high as the summary's words put it. (The check question is no section:
it trades with no summary.)
"""

from __future__ import annotations

from array import array

from whoosh import query as wq

from .top_hits import SECTIONS_PER_LESSON, ranks_above
from .whoosh_index import PART

Scores = dict[int, float]


class LessonSummaries:
    """The summaries of one open index version, each with its lesson's sections."""

    def __init__(self, searcher, order: array):
        """``order``: each document's place in the course (``top_hits.course_order``), whose
        lesson part is the lesson's position: positions never repeat (``course.py``)."""
        summaries = list(searcher.docs_for_query(wq.Term(PART, "summary")))
        self.checks = frozenset(searcher.docs_for_query(wq.Term(PART, "check")))
        self.lesson_of: dict[int, int] = {s: order[s] // SECTIONS_PER_LESSON
                                          for s in summaries}
        """Each summary's lesson, by its place in ``order``."""
        by_lesson = {lesson: s for s, lesson in self.lesson_of.items()}
        sections: dict[int, list[int]] = {s: [] for s in summaries}
        if by_lesson:
            for docnum, place in enumerate(order):
                summary = by_lesson.get(place // SECTIONS_PER_LESSON)
                if summary is not None and summary != docnum and docnum not in self.checks:
                    sections[summary].append(docnum)
        self._sections = {s: tuple(sorted(found, key=order.__getitem__))
                          for s, found in sections.items()}
        """Each summary's lesson's sections, in course order."""

    def trade(self, scores: Scores, floor: float = float("-inf")) -> None:
        """Swap in ``scores`` (every match of a query, changed in place) the score of each
        summary scoring ``floor`` or more with that of its lesson's best section, where the
        summary's is higher. (Below the page's last score a summary need not be looked at:
        both it and its section stay off the page.)"""
        if len(self._sections) < len(scores):
            found = [s for s in self._sections if s in scores and scores[s] >= floor]
        else:
            found = [d for d, score in scores.items() if score >= floor and d in self._sections]
        for summary in found:
            best = best_section(scores, self._sections[summary])
            if best is not None and ranks_above(scores[summary], scores[best]):
                scores[summary], scores[best] = scores[best], scores[summary]


def best_section(scores: Scores, sections: tuple[int, ...]) -> int | None:
    """The matched section of ``sections`` (in course order) with the highest score, the
    first on a tie, as a page orders them."""
    found = None
    for docnum in sections:
        if docnum in scores and (found is None or ranks_above(scores[docnum], scores[found])):
            found = docnum
    return found
