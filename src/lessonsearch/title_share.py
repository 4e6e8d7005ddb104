"""A lesson's title counted in each of its documents whatever the document's length.

Every document is indexed with its lesson's title (``whoosh_index.TITLE_WEIGHT``) in the one
``content`` field, and BM25 divided a word's weight there by the document's length, the
title's share with the rest: a word of the title counted most in the lesson's shortest
documents. A search for "puncture", which only the title "Mending a puncture" writes, put a
one-line "Check your work" first and the lesson's top second; "tyre pressure" put the
one-line top of "Tyre pressure" ("How hard should my tyres be?") above the sections that
answer it, and "context" the sample course's one-line top of "The context window" above the
section that says what a context window is.

The title is the same in every document of its lesson, so its share of a word's weight is
added after the rest is scaled by the document's length (BM25F, the title a field of its
own that is not normalised by length), and the sum saturates as one word's weight does.
Documents that match by the title alone score the same and come in course order, the
lesson's top first; a section that writes the word comes before one of its lesson that does
not, whatever their lengths. The index is unchanged: the title's share of a word in a
document is what the title gives it (its words at ``TITLE_WEIGHT``), read from the stored
title once a lesson. (The names of the terms only the title names, ``_counted_less``, are
scaled by length still: which they are is the glossary's, not stored with the title.)
Block scoring (``word_scoring``) and Whoosh's matchers (``TitleBM25``) score alike.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping

from whoosh.scoring import BM25F, BM25FScorer

from .top_hits import SECTIONS_PER_LESSON
from .whoosh_index import CONTENT, TITLE_WEIGHT, _postings

Shares = dict[bytes, float]


def title_bm25(idf: float, weight: float, norm: float, K1: float, title: float) -> float:
    """BM25 of a word of ``weight`` in a document whose length gives ``norm``
    (``(1 - B) + B * length / average``), ``title`` of that weight from its lesson's title:
    that share is not scaled by the length. Without a title share, whoosh.scoring.bm25,
    written out so the float operations are the same."""
    if title <= 0.0:
        return idf * ((weight * (K1 + 1)) / (weight + K1 * norm))
    title = min(title, weight)
    frequency = (weight - title) / norm + title
    return idf * ((frequency * (K1 + 1)) / (frequency + K1))


class TitleShares:
    """What each lesson's title gives each word of its documents, in one open index version:
    read from the stored title of one document of each lesson the first time a word is
    scored (``order``, each document's place in the course, says which are a lesson's)."""

    def __init__(self, order: Callable[[object], array],
                 titles: Callable[[], Mapping[int, str]] = dict):
        """``order(searcher)``: each document's place in the course
        (``top_hits.course_order``), kept by the caller; ``titles()``: each lesson's title by
        its place, as the manifest the server holds lists them. A lesson it leaves out has
        its title read from a document's stored fields: at 100,000 sections reading one
        document of each of 12,500 lessons made a version's first search 0.5 s longer."""
        self._order = order
        self._titles = titles
        self._runs: _Runs | None = None

    def of(self, searcher, text: str | bytes) -> tuple[array, dict[int, float]] | None:
        """The course order and, by lesson (a place's lesson part), the weight its title
        gives the term ``text`` in each of its documents; None when no title writes it (as
        for most words: scored as plain BM25)."""
        runs = self._runs
        if runs is None:
            runs = self._runs = self._read(searcher)
        found = runs.by_lesson(term_key(text))  # made for each word scored, not kept: a
        # dictionary of a word's few hundred titles takes less time than its postings do
        return None if found is None else (self._order(searcher), found)

    def _read(self, searcher) -> _Runs:
        """Each term the lessons' titles write, and what each title gives it."""
        first: dict[int, int] = {}
        for docnum, place in enumerate(self._order(searcher)):
            first.setdefault(place // SECTIONS_PER_LESSON, docnum)
        stemming = searcher.schema[CONTENT].analyzer.stemming
        known = self._titles()
        ids: dict[bytes, int] = {}
        which, lessons, shares = array("i"), array("i"), array("d")
        for lesson, docnum in first.items():
            title = known.get(lesson)
            if title is None:
                title = searcher.stored_fields(docnum).get("lesson_title") or ""
            for text, written, weight, _ in _postings(title, stemming, 1.0):
                # each time written at TITLE_WEIGHT; a word made from it (its -ize family)
                # at FAMILY_WEIGHT, as indexing counts it in any part
                which.append(ids.setdefault(text, len(ids)))
                lessons.append(lesson)
                shares.append(written * TITLE_WEIGHT + weight - written)
        return _Runs(ids, which, lessons, shares)


class _Runs:
    """Each title term's lessons and shares, kept flat: the lessons and shares of each term
    one run after another in two arrays, where each run starts in a third, and a dictionary
    of each term's run. At 100,000 sections (12,500 titles, each numbered) a dictionary of
    lessons for each term held 7 MB in every server worker, and the server's 219 MB went
    over the 200 MB it is to keep to."""

    def __init__(self, ids: dict[bytes, int], which: array, lessons: array, shares: array):
        """``which``, ``lessons``, ``shares``: each title's term (its number in ``ids``),
        lesson and share, in the order the titles were read; sorted into runs here, a term
        at a time (a counting sort: no object an entry)."""
        self._at = ids
        starts = array("q", bytes(8 * (len(ids) + 1)))
        for term in which:
            starts[term + 1] += 1
        for at in range(1, len(starts)):
            starts[at] += starts[at - 1]
        self._starts = starts
        fill = array("q", starts)
        self._lessons = array("i", bytes(4 * len(lessons)))
        self._shares = array("d", bytes(8 * len(shares)))
        for term, lesson, share in zip(which, lessons, shares, strict=True):
            place = fill[term]
            self._lessons[place], self._shares[place] = lesson, share
            fill[term] = place + 1

    def by_lesson(self, text: bytes) -> dict[int, float] | None:
        """What the titles give ``text``, by lesson; None when no title writes it."""
        at = self._at.get(text)
        if at is None:
            return None
        start, end = self._starts[at], self._starts[at + 1]
        return dict(zip(self._lessons[start:end], self._shares[start:end], strict=True))


def term_key(text: str | bytes) -> bytes:
    """A term as ``TitleShares`` keys it (the index's bytes)."""
    return text if isinstance(text, bytes) else text.encode("utf-8")


def share_of(shares: tuple[array, dict[int, float]] | None, docnum: int) -> float:
    """What the title gives a term in document ``docnum`` (``TitleShares.of``)."""
    if shares is None:
        return 0.0
    order, by_lesson = shares
    return by_lesson.get(order[docnum] // SECTIONS_PER_LESSON, 0.0)


class TitleBM25(BM25F):
    """Whoosh's BM25F with the title's share of a ``content`` word not scaled by length, as
    the block scorer has it: for the queries Whoosh's matchers score (``title_bm25``)."""

    def __init__(self, titles: TitleShares, B: float, K1: float):
        super().__init__(B=B, K1=K1)
        self.titles = titles

    def supports_block_quality(self) -> bool:
        return False  # a long section's title share can score above the block's bound

    def scorer(self, searcher, fieldname, text, qf=1):
        if fieldname != CONTENT or not searcher.schema[fieldname].scorable:
            return super().scorer(searcher, fieldname, text, qf)
        return _TitleScorer(searcher, fieldname, text, self.B, self.K1, self.titles, qf)


class _TitleScorer(BM25FScorer):
    def __init__(self, searcher, fieldname, text, B, K1, titles: TitleShares, qf=1):
        self._top = searcher.get_parent()
        self._offset = next((offset for sub, offset in self._top.subsearchers
                             if sub is searcher), 0) if self._top is not searcher else 0
        self._shares = titles.of(self._top, text)
        super().__init__(searcher, fieldname, text, B, K1, qf=qf)
        # no more than a word of the greatest weight scores in the shortest document, or
        # counted whole, as a title share is
        self._maxquality = max(self._maxquality, self.idf * (K1 + 1))

    def supports_block_quality(self) -> bool:
        return False

    def score(self, matcher) -> float:
        docnum = matcher.id()
        norm = (1 - self.B) + self.B * self.dfl(docnum) / self.avgfl
        title = share_of(self._shares, docnum + self._offset)
        return title_bm25(self.idf, matcher.weight(), norm, self.K1, title)
