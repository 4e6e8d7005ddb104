"""How many sections match a query, exactly, without scoring them all.

Written when the page's ranking let Whoosh skip posting blocks (its ``optimize``), which
then no longer counted every match; counting by walking every posting again doubled the cost
of a query whose words are in most sections. Whoosh no longer skips (``top_hits``: it lost
hits under NOT), but the count stays apart: a query that matches nothing is answered without
scoring, and a filter's bitmap is what the block scorer (``word_scoring``) filters with. Each
word's documents are one Python integer with a bit per document, combined with ``|``, ``&``
and ``& ~`` in C, and the bitmaps of frequent words kept while the index version is open.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from functools import reduce
from operator import and_, or_
from typing import Any

from whoosh import query as wq

from .query_plan import Exact
from .whoosh_index import CONTENT

PHRASE_FIELD = CONTENT
PhraseDocs = Callable[[Any, list[str]], Iterable[int]]

MAX_CACHED = 512
"""Bitmaps kept per open version: each is a bit per document (12.5 kB at 100k sections)."""
CACHE_SHARE = 0.01
"""Only words in at least this share of documents are kept: rarer ones are quick to redo."""


class MatchCounter:
    """Exact match counts for one open index version (the searchers of all its threads)."""

    def __init__(self, doc_count: int, phrase_docs: PhraseDocs | None = None):
        """``phrase_docs(searcher, words)``: the documents that hold ``words`` one after the
        other in ``PHRASE_FIELD`` (``WordScorer.phrase_docs``), read from whole posting
        blocks; without it, or for another phrase, Whoosh's phrase matcher finds them, a
        posting at a time, many times slower for common words."""
        self.doc_count = doc_count
        self._all = (1 << doc_count) - 1
        self._phrase_docs = phrase_docs
        self._cache: dict[tuple[str, bytes | str], int] = {}
        self._lock = threading.Lock()

    def count(self, searcher, q: wq.Query, filter_q: wq.Query | None = None) -> int:
        bits = self.bits(searcher, q)
        if filter_q is not None:
            bits &= self.bits(searcher, filter_q)
        return bits.bit_count()

    def bits(self, searcher, q: wq.Query) -> int:
        """A bitmap of the documents ``q`` matches, in the searcher's document numbers."""
        if isinstance(q, Exact):  # its own matcher drops the postings it does not count
            return _bitmap(searcher.docs_for_query(q), self.doc_count)
        if isinstance(q, wq.Term):
            return self._term(searcher, q.fieldname, q.text)
        if (type(q) is wq.Phrase and self._phrase_docs is not None and q.slop == 1
                and q.fieldname == PHRASE_FIELD and len(q.words) > 1):
            return self._phrase(searcher, tuple(q.words))
        if isinstance(q, wq.Or):
            return reduce(or_, (self.bits(searcher, s) for s in q.subqueries), 0)
        if isinstance(q, wq.And):
            positives = [s for s in q.subqueries if not isinstance(s, wq.Not)]
            bits = reduce(and_, (self.bits(searcher, s) for s in positives), self._all)
            for negative in q.subqueries:
                if isinstance(negative, wq.Not):
                    bits &= ~self.bits(searcher, negative.query)
            return bits
        if isinstance(q, wq.Not):
            return self._all & ~self.bits(searcher, q.query)
        return _bitmap(searcher.docs_for_query(q), self.doc_count)  # phrases: need positions

    def _term(self, searcher, field: str, text: bytes | str) -> int:
        key = (field, text)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        frequency = searcher.doc_frequency(field, text)
        bits = _bitmap(searcher.docs_for_query(wq.Term(field, text)), self.doc_count)
        if frequency >= CACHE_SHARE * self.doc_count:
            with self._lock:
                if len(self._cache) >= MAX_CACHED:
                    self._cache.pop(next(iter(self._cache)))
                self._cache[key] = bits
        return bits

    def _phrase(self, searcher, words: tuple[str, ...]) -> int:
        """A phrase's bitmap; not kept here, as ``phrase_docs`` keeps what it found (the
        word bitmaps this cache holds stay)."""
        return _bitmap(self._phrase_docs(searcher, list(words)), self.doc_count)


def _bitmap(docnums, size: int) -> int:
    buffer = bytearray(size // 8 + 1)
    for docnum in docnums:
        buffer[docnum >> 3] |= 1 << (docnum & 7)
    return int.from_bytes(buffer, "little")
