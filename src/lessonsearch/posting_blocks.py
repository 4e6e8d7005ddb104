"""Reading a word's posting blocks whole, as the index writes them, for the search side.

Whoosh reads postings one at a time through a matcher, about 10 µs each. The block scorer
(``word_scoring``) and a quoted or excluded word (``query_plan.Exact``) read whole blocks
instead: a block is one pickled tuple of delta-coded ids, weights and values.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Iterator
from itertools import accumulate
from pickle import loads

from whoosh.codec.whoosh3 import W3LeafMatcher

UNWRITTEN_KEPT = 100_000
"""Words whose unwritten sections are kept, by segment (most hold an empty set)."""
_unwritten: dict[tuple[str, str, str], frozenset[int]] = {}
_lock = threading.Lock()


def each_block(matcher: W3LeafMatcher) -> Iterator[W3LeafMatcher]:
    """``matcher`` standing at each of its posting blocks in turn, from the first: its
    ``_maxid`` is the block's highest docnum, and ``block`` decodes it."""
    while True:
        yield matcher
        if matcher._lastblock:
            return
        matcher._goto(matcher._nextoffset)


def block(matcher: W3LeafMatcher) -> tuple:
    """The current block's (delta-coded ids, weights, values), as Whoosh stores it."""
    raw = matcher._postfile.get(matcher._dataoffset, matcher._nextoffset - matcher._dataoffset)
    return loads(zlib.decompress(raw) if matcher._compression else raw)


def unwritten(reader, field: str, text: str) -> frozenset[int]:
    """The sections of ``reader`` that hold the word ``text`` without writing it: its
    postings with no positions, which a word made from it with -ize gives it
    (``whoosh_index._with_bases``); empty for most words. Kept by segment, as finding them
    decodes every posting block of the word (15 ms for a word in most of 10,000 sections),
    for the block scorer and Whoosh's matchers alike: a segment's id names its contents,
    which never change."""
    segment = getattr(reader, "segment", None)
    key = (segment().segment_id(), field, text) if segment is not None else None
    found = _unwritten.get(key) if key is not None else None
    if found is None:
        found = _find_unwritten(reader.postings(field, text))
        if key is not None:
            with _lock:
                if len(_unwritten) >= UNWRITTEN_KEPT:
                    _unwritten.clear()
                _unwritten[key] = found
    return found


def _find_unwritten(matcher) -> frozenset[int]:
    if type(matcher) is not W3LeafMatcher:  # e.g. a segment with deletions: the slow way
        found = set()
        while matcher.is_active():
            if len(matcher.value()) <= 1:
                found.add(matcher.id())
            matcher.next()
        return frozenset(found)
    found = set()
    for at in each_block(matcher):
        data = block(at)
        found.update(d for d, value in zip(accumulate(data[0]), data[2], strict=True)
                     if len(value) <= 1)
    return frozenset(found)
