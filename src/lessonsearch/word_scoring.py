"""Scoring queries made of words straight from Whoosh's posting blocks.

Whoosh scores a query one posting at a time through a tree of matcher objects, about 10 µs a
posting in Python: a word in most of 10,000 sections cost 90 ms, two of them 190 ms, and
block skipping rarely helps when a word is everywhere. Queries of words and phrases joined
by AND, OR, NOT and the "most words" OR (nearly every query a reader types) are scored here
instead: each word's posting blocks are decoded whole, scored with Whoosh's own BM25F formula
in one comprehension, and combined with dictionaries, in about a tenth of the time; a phrase
reads positions only in the sections that hold all its words. Scores are Whoosh's (the same
formula, statistics and per-segment rules, tested against it; with a lesson's title's share
of a word not scaled by length, ``title_share``, which Whoosh's matchers are given too), so
the ranking does not change; anything else (a word's family at its weight, say) goes to
Whoosh. Which sections hold a phrase is kept while the version is open, and counted from here too
(``match_count``): Whoosh's phrase matcher, a posting at a time, was most of the 22 s a
query of 56 phrases of common words took at 10,000 sections.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from functools import partial
from heapq import nlargest
from itertools import accumulate

from whoosh import query as wq
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.util.numeric import byte_to_length

from .posting_blocks import block, each_block, unwritten
from .query_plan import Exact, MostWords
from .title_share import TitleShares, share_of, title_bm25
from .whoosh_index import length_bytes

Scores = dict[int, float]
CACHED_POSTINGS = 800_000
"""Scored postings kept per open version (12 bytes each: 9.6 MB): every word of a
10,000-section course (about 700,000 postings), the most frequent ones at 100,000. A
million took the server at 100,000 sections to 199–203 MB, its target 200 (bench/README.md)."""

PHRASE_SHARE = 8
"""The documents phrases are found in are kept within an eighth of that budget, counted
apart (4 bytes each: 0.4 MB): a server at 100,000 sections stays within its 200 MB."""

PHRASE_ENTRY = 96
"""What one kept phrase costs beside its documents, counted as that many documents: its key,
its arrays and their tuple take about 380 bytes (``sys.getsizeof``), 4 bytes a document.
Most phrases a segment is asked for are in none or a few of its sections, so counting only
the documents let the phrases grow without bound: 9,168 kept after 600 searches at
100,000 sections, 24,527 documents counted (a quarter of the budget) but 3.4 MB held, and
more with every new query (bench/README.md)."""

FAVOUR_READ = 2
"""At most this many times the sections a page wants are read for words side by side, the
best scoring of those the bonus could bring onto the page (the first in the index among
equals), with the sections their summaries and checks may trade with: at 100,000 sections a
pair of common words had thousands within reach, and reading where each word stands in all
of them took the server past its 200 MB (206 MB; 198–199 MB with this; bench/README.md). A
section further down is not favoured: it stays below the page."""
SIDE_BY_SIDE_BONUS = 0.25
"""What a section that writes each two words of a query one after the other, as the query
does (``query_plan.Plan.side_by_side``), has its score raised by: 1.25 times it for "bread
flour" where the section writes "bread flour", and for a query of three words an eighth more
for each of its two pairs written so. BM25 scores words wherever they stand: a short check
question asking why a bread recipe weighs its flour came before the section that says what
bread flour is. A half (0.5) changed more top threes, took shell-novice's exercise
"Absolute vs Relative Paths" out of the top three for `absolute path`, and found one
held-out question fewer in the top three
(bench/README.md). Read only in the sections whose score could reach the page with it
(``WordScorer.favour``): read in every section holding the words, two common words cost up
to 70 ms more at 10,000 sections."""


def can_score(q: wq.Query, field: str) -> bool:
    """True for a tree of words (``Term``) on ``field`` joined by And, Or and MostWords, with
    NOT only inside an And beside something positive, and no boosts but a word's (a joined
    form's: ``query_plan._joined_term``); MostWords only over words, phrases or ORs of
    them."""
    if isinstance(q, wq.Term):
        return q.fieldname == field
    if q.boost != 1.0:
        return False
    if type(q) is wq.Phrase:
        return q.fieldname == field and q.slop == 1 and len(q.words) > 1
    if isinstance(q, MostWords):
        return bool(q.subqueries) and all(
            can_score(s, field) and (_leaf(s) or type(s) is wq.Or
                                     and all(_leaf(t) for t in s.subqueries))
            for s in q.subqueries)
    if type(q) is wq.And:
        positives = [s for s in q.subqueries if type(s) is not wq.Not]
        negatives = [s.query for s in q.subqueries if type(s) is wq.Not]
        return bool(positives) and all(can_score(s, field) for s in positives + negatives)
    if type(q) is wq.Or:
        return bool(q.subqueries) and all(can_score(s, field) for s in q.subqueries)
    return False


def _leaf(q: wq.Query) -> bool:
    """A word, or a phrase (which ``can_score`` checks): what ``MostWords`` counts."""
    return isinstance(q, wq.Term) or type(q) is wq.Phrase


class WordScorer:
    """Scores word queries for one open index version (shared by all its threads)."""

    def __init__(self, field: str, B: float, K1: float, budget: int = CACHED_POSTINGS,
                 titles: TitleShares | None = None):
        """``titles``: what each lesson's title gives the words of its documents, a share
        of their weight not scaled by length (``title_share``); None: plain BM25."""
        self.field = field
        self.titles = titles
        self.B = B
        self.K1 = K1
        self.budget = budget
        self._lengths: dict[int, array] = {}
        self._scored: dict[tuple[int, str], tuple[array, array]] = {}
        self._cached = 0
        self._phrases: dict[tuple, array | tuple[array, array]] = {}
        self._phrased = 0
        self._phrase_budget = budget // PHRASE_SHARE
        self._lock = threading.Lock()

    def top(self, searcher, q: wq.Query, wanted: int, order, allow: int | None = None,
            rescore: Callable[[Scores, float], None] | None = None,
            boost: dict[int, float] | None = None,
            side_by_side: tuple[tuple[str, ...], ...] = (),
            beside: Callable[[set[int]], set[int]] | None = None,
            ) -> tuple[list[tuple[float, int]], int]:
        """The ``wanted`` best (score, docnum), ties in ``order``, and how many matched.

        ``allow`` is a bitmap of the documents a filter lets through, or None. ``boost``
        multiplies the scores of the documents it holds that match.
        ``rescore(scores, floor)`` may swap, in place, scores of the matches the filter lets
        through, where one of the two is ``floor`` (the page's last score) or more
        (``summary_rank``): the page's scores, and so its last one, stay the same.
        ``side_by_side``: runs of words a section is favoured for writing one after the other
        (``favour``, ``beside`` its argument), after ``boost``.
        """
        scores: Scores = {}
        for number, (leaf, offset) in enumerate(_leaves(searcher)):
            segment = _Segment(self, searcher, leaf, number, offset)
            for docnum, score in segment.evaluate(q).items():
                scores[docnum + offset] = score
        for docnum, factor in (boost or {}).items():
            if docnum in scores:
                scores[docnum] *= factor
        if allow is not None:
            scores = {d: s for d, s in scores.items() if allow >> d & 1}
        if side_by_side and scores:
            self.favour(searcher, scores, side_by_side, wanted, beside)
        candidates = scores.items()
        if len(scores) > wanted:  # only what could tie with the last kept score is ordered
            cutoff = nlargest(wanted, scores.values())[-1] - 1e-8
            if rescore is not None:
                rescore(scores, cutoff)
            candidates = [(d, s) for d, s in candidates if s >= cutoff]
        elif rescore is not None:
            rescore(scores, float("-inf"))
        best = nlargest(wanted, candidates,
                        key=lambda item: (round(item[1], 9), -order[item[0]], -item[0]))
        return [(score, docnum) for docnum, score in best], len(scores)

    def favour(self, searcher, scores: Scores, runs: tuple[tuple[str, ...], ...],
               wanted: int, beside: Callable[[set[int]], set[int]] | None = None) -> None:
        """Raise in place the score of each section in ``scores`` that writes the words of
        ``runs`` one after the other, ``SIDE_BY_SIDE_BONUS`` times its share of the runs so
        written. Read only in the sections that could reach the ``wanted`` best with the
        whole bonus, and in those ``beside`` gives for them (the sections of their lessons,
        one of which a summary or check trades its score with: ``summary_rank``): a section
        scoring less stays off the page with it or without. The phrase's sections are
        taken whole where they are kept (``found_in_a_row``)."""
        near: set[int] = set(scores)
        if len(scores) > wanted:
            reach = nlargest(wanted, scores.values())[-1] / (1 + SIDE_BY_SIDE_BONUS) - 1e-8
            near = {d for d, s in scores.items() if s >= reach}
            if len(near) > FAVOUR_READ * wanted:  # many alike: a common pair at 100k
                near = set(nlargest(FAVOUR_READ * wanted, near, key=lambda d: (scores[d], -d)))
            if beside is not None:
                near |= beside(near) & scores.keys()
        written: Counter[int] = Counter()
        for number, (leaf, offset) in enumerate(_leaves(searcher)):
            end = offset + leaf.doc_count_all()
            local = {d - offset for d in near if offset <= d < end}
            if not local:
                continue
            segment = _Segment(self, searcher, leaf, number, offset)
            for found in segment.in_a_row_among(runs, local).values():
                written.update(d + offset for d in found)
        for docnum, count in written.items():
            scores[docnum] *= 1 + SIDE_BY_SIDE_BONUS * count / len(runs)

    def scored(self, number: int, text: str, compute) -> tuple[array, array] | None:
        """A word's (docnums, scores) in one segment: kept while the budget allows, as the
        statistics behind them do not change while the version is open. ``compute`` gives
        None when the segment lacks the word; only found words are kept, so a kept word
        costs no lookup in the segment's term table."""
        key = (number, text)
        found = self._scored.get(key)
        if found is None:
            found = compute()
            if found is None:
                return None
            size = len(found[0])
            with self._lock:
                while self._scored and self._cached + size > self.budget:
                    _, (ids, _) = self._scored.popitem()  # newest first: a scan evicts itself
                    self._cached -= len(ids)
                if size <= self.budget:
                    self._scored[key] = found
                    self._cached += size
        return found

    def found_in_a_row(self, number: int, words: tuple[str, ...], compute) -> array:
        """The documents of one segment that hold ``words`` one after the other: kept, within
        an eighth of the budget of words' scores (``PHRASE_SHARE``), as reading where each
        word stands is most of a phrase's cost (a search page asks for several pages of the
        same query)."""
        key = (number, words)
        found = self._phrases.get(key)
        if found is None:
            found = compute()
            self.keep_phrase(key, found)
        return found

    def keep_phrase(self, key: tuple, found: array | tuple[array, array]) -> None:
        """Keep ``found`` under ``key`` within the phrases' budget (``PHRASE_SHARE``), the
        newest dropped first when it is full; one kept under ``key`` is replaced. ``found``
        is a phrase's documents, or the documents read for it and those of them found
        (``_Segment.in_a_row_among``), counted by the first."""
        size = _kept_size(found)
        with self._lock:
            if (old := self._phrases.pop(key, None)) is not None:
                self._phrased -= _kept_size(old)
            budget = self._phrase_budget
            while self._phrases and self._phrased + size > budget:
                _, dropped = self._phrases.popitem()
                self._phrased -= _kept_size(dropped)
            if size <= budget:
                self._phrases[key] = found
                self._phrased += size

    def phrase_docs(self, searcher, words: list[str]) -> list[int]:
        """The documents, in ``searcher``'s numbers, that hold ``words`` one after the
        other, as ``Phrase(field, words)`` finds them (``match_count``)."""
        found: list[int] = []
        for number, (leaf, offset) in enumerate(_leaves(searcher)):
            segment = _Segment(self, searcher, leaf, number, offset)
            found.extend(docnum + offset for docnum in segment.in_a_row(tuple(words)))
        return found

    def lengths(self, number: int, leaf) -> array:
        """The segment's field lengths, as Whoosh's scorer reads them (byte-quantised)."""
        found = self._lengths.get(number)
        if found is None:
            found = _lengths(leaf, self.field)
            with self._lock:
                self._lengths[number] = found
        return found


class _Segment:
    def __init__(self, scorer: WordScorer, top, leaf, number: int, offset: int = 0):
        self.scorer = scorer
        self.top = top
        self.leaf = leaf
        self.number = number
        self.offset = offset

    def evaluate(self, q: wq.Query, exact: bool = False) -> Scores:
        """``q``'s scores by section; ``exact``: a word only where it is written (under NOT),
        not where the index counts a word made from it (``query_plan.Exact``)."""
        if isinstance(q, wq.Term):
            scores = self.term(q.text)
            if q.boost != 1.0:  # each score times the boost, as Whoosh's WrappingMatcher
                scores = {d: s * q.boost for d, s in scores.items()}
            if scores and (exact or isinstance(q, Exact)):
                found = unwritten(self.leaf, self.scorer.field, q.text)
                if found:
                    return {d: s for d, s in scores.items() if d not in found}
            return scores
        if isinstance(q, wq.Phrase):
            return self.phrase(q.words)
        if isinstance(q, MostWords):
            return self.most_words(q)
        if isinstance(q, wq.And):
            return self.all_of(q.subqueries)
        if isinstance(q, wq.Or):
            return _sum_union([self.evaluate(s, exact) for s in q.subqueries])
        raise TypeError(f"not a word query: {q!r}")  # a bare Not: can_score lets none through

    def all_of(self, subqueries) -> Scores:
        if len(subqueries) == 1:
            return self.evaluate(subqueries[0])
        positives = [self.evaluate(s) for s in subqueries if not isinstance(s, wq.Not)]
        negatives = [self.evaluate(s.query, exact=True) for s in subqueries
                     if isinstance(s, wq.Not)]
        # Whoosh scores a NOT as a matcher of everything else with weight 1: +1 each.
        excluded = float(len(negatives))
        positives.sort(key=len)
        first, rest = positives[0], positives[1:]
        common = set(first).intersection(*rest)
        for negative in negatives:
            common.difference_update(negative)
        return {d: first[d] + sum(other[d] for other in rest) + excluded for d in common}

    def most_words(self, q: MostWords) -> Scores:
        """Whoosh's coordination bonus over the words the index holds (``MostWords``)."""
        if len(q.subqueries) == 1:
            return self.evaluate(q.subqueries[0])  # Whoosh gives one query no bonus
        leaves = [[self.evaluate(t) for t in (s.subqueries if isinstance(s, wq.Or) else [s])]
                  for s in q.subqueries]  # a word in quotes only as written (``Exact``)
        # Whoosh counts each word of a phrase that matches (its matcher is theirs, joined)
        counts = [[len(t.words) if type(t) is wq.Phrase else 1
                   for t in (s.subqueries if isinstance(s, wq.Or) else [s])]
                  for s in q.subqueries]
        union = _sum_union([_sum_union(group) for group in leaves])
        present = q.words_present(self.top)
        if not union or present <= 1:
            return union
        scale = q.scale
        bonus = 1 / (present - scale) ** 2
        factor = (present - 1) / present
        matching: Counter[int] = Counter()  # each section's matching words, counted in C
        for group, weights in zip(leaves, counts, strict=True):
            for scores, count in zip(group, weights, strict=True):
                if count == 1:
                    matching.update(scores.keys())
                else:
                    for docnum in scores:
                        matching[docnum] += count
        return {docnum: (score + (matching[docnum] - 1) * bonus) * factor
                for docnum, score in union.items()}

    def phrase(self, words: list[str]) -> Scores:
        """Sections holding the words one after the other, scored as Whoosh scores a phrase:
        the sum of its words' scores. Positions are read only for sections holding them all."""
        found = self.in_a_row(tuple(words))
        if not found:
            return {}
        each = {w: self.term(w) for w in dict.fromkeys(words)}
        scores = [each[w] for w in words]  # "token token": its score twice, as Whoosh sums
        return {d: sum(s[d] for s in scores) for d in found}

    def in_a_row(self, words: tuple[str, ...]) -> array:
        """The segment's documents that hold ``words`` one after the other, read once while
        the budget keeps them (``WordScorer.found_in_a_row``)."""
        return self.scorer.found_in_a_row(self.number, words, lambda: self._in_a_row(words))

    def in_a_row_among(self, runs: tuple[tuple[str, ...], ...],
                       docnums: set[int]) -> dict[tuple[str, ...], set[int]]:
        """Of ``docnums``, those that hold the words of each of ``runs`` one after the other:
        from a phrase's kept documents where they are kept (``found_in_a_row``), else read
        in ``docnums`` alone, each word's postings opened once for every run that holds it
        (opening them is most of the cost). What was read so is kept too, in the phrases'
        budget (the documents read, and those of them found): a page asked for again, or
        its next page, reads only the documents not read before."""
        out: dict[tuple[str, ...], set[int]] = {}
        among: dict[tuple[str, ...], set[int]] = {}
        before: dict[tuple[str, ...], tuple[set[int], set[int]]] = {}
        for run in runs:
            kept = self.scorer._phrases.get((self.number, run))
            if kept is not None:
                out[run] = docnums.intersection(kept)
                continue
            held = [self.scorer.scored(self.number, w, partial(self._score, w))
                    for w in dict.fromkeys(run)]
            common = set(docnums) if all(held) else set()
            for ids, _ in held if common else ():
                common.intersection_update(ids)
            read, found = self.scorer._phrases.get((self.number, run, "read"), ((), ()))
            checked, found = set(read), set(found)
            out[run] = common & found
            before[run] = (checked, found)
            if common - checked:
                among[run] = common - checked
        wanted: dict[str, set[int]] = {}
        for run, common in among.items():
            for w in run:
                wanted.setdefault(w, set()).update(common)
        places = {w: self._positions(w, found) for w, found in wanted.items()}
        for run, common in among.items():
            found = {d for d in common if _in_a_row([places[w][d] for w in run])}
            out[run] |= found
            checked, found_before = before[run]
            found |= found_before
            self.scorer.keep_phrase((self.number, run, "read"),
                                    (array("i", checked | common), array("i", found)))
        return out

    def _in_a_row(self, words: tuple[str, ...]) -> array:
        held = [self.scorer.scored(self.number, w, partial(self._score, w))
                for w in dict.fromkeys(words)]
        if not all(held):
            return array("i")
        common = set(held[0][0]).intersection(*(ids for ids, _ in held[1:]))
        if not common:
            return array("i")
        places = {w: self._positions(w, common) for w in set(words)}
        return array("i", sorted(d for d in common
                                 if _in_a_row([places[w][d] for w in words])))

    def _positions(self, text: str, docnums: set[int]) -> dict[int, list[int]]:
        """Where the word stands in each of ``docnums`` (all of which hold it)."""
        matcher = self.leaf.postings(self.scorer.field, text)
        wanted = sorted(docnums)
        out: dict[int, list[int]] = {}
        if type(matcher) is not W3LeafMatcher:
            while matcher.is_active():
                if matcher.id() in docnums:
                    out[matcher.id()] = list(matcher.value_as("positions"))
                matcher.next()
            return out
        decode = matcher.format.decode_positions
        low = 0  # every docnum of this block is above the last block's highest
        for at in each_block(matcher):
            start = bisect_left(wanted, low)
            if start < len(wanted) and wanted[start] <= at._maxid:
                data = block(at)
                for docnum, value in zip(accumulate(data[0]), data[2], strict=True):
                    if docnum in docnums:
                        out[docnum] = decode(value)
            low = at._maxid + 1
        return out

    def term(self, text) -> Scores:
        found = self.scorer.scored(self.number, text, lambda: self._score(text))
        return dict(zip(*found, strict=True)) if found is not None else {}

    def _score(self, text) -> tuple[array, array] | None:
        leaf, field = self.leaf, self.scorer.field
        if (field, text) not in leaf:
            return None
        ids, weights = _postings(leaf.postings(field, text))
        lengths = self.scorer.lengths(self.number, leaf)
        idf = self.top.idf(field, text)
        avgfl = self.top.avg_field_length(field) or 1
        B, K1 = self.scorer.B, self.scorer.K1
        titles = self.scorer.titles
        shares = None if titles is None else titles.of(self.top, text)
        if shares is None:  # most words: title_bm25 without a share, written out inline
            # (whoosh.scoring.bm25's float operations), no call a posting on the hot path
            scores = [idf * ((w * (K1 + 1)) / (w + K1 * ((1 - B) + B * lengths[d] / avgfl)))
                      for d, w in zip(ids, weights, strict=True)]
        else:
            offset = self.offset
            scores = [title_bm25(idf, w, (1 - B) + B * lengths[d] / avgfl, K1,
                                 share_of(shares, d + offset))
                      for d, w in zip(ids, weights, strict=True)]
        return array("i", ids), array("d", scores)


def _lengths(leaf, field: str) -> array:
    """Every document's length in ``field`` as ``doc_field_length(d, field, 1) or 1`` gives
    it, from the segment's length column read whole: asked one document at a time, the
    first query to reach a segment spent 2.5 µs a document on it (25 ms at 10,000
    sections, 250 ms at 100,000, on the first queries after each new version)."""
    count = leaf.doc_count_all()
    try:
        raw = length_bytes(leaf._perdoc, field, count)
    except AttributeError:  # another reader or codec: one document at a time
        return array("i", [leaf.doc_field_length(d, field, 1) or 1 for d in range(count)])
    return array("i", map(_LENGTH_OF_BYTE.__getitem__, raw))


_LENGTH_OF_BYTE = [1] + [byte_to_length(b) or 1 for b in range(1, 256)]
"""A length byte's length; a zero byte (no length written) reads as 1."""


def _kept_size(found: array | tuple[array, array]) -> int:
    """What ``WordScorer.keep_phrase`` counts of what it keeps: the documents found, or
    those read and those of them found, and what keeping any entry costs
    (``PHRASE_ENTRY``)."""
    documents = len(found[0]) + len(found[1]) if isinstance(found, tuple) else len(found)
    return PHRASE_ENTRY + documents


def _sum_union(parts: list[Scores]) -> Scores:
    parts = [p for p in parts if p]
    if not parts:
        return {}
    out = dict(parts[0])
    for part in parts[1:]:
        for docnum, score in part.items():
            out[docnum] = out[docnum] + score if docnum in out else score
    return out


def _postings(matcher) -> tuple[list[int], list[float]]:
    """Every (docnum, weight) of a term in one segment, decoded a block at a time."""
    if type(matcher) is not W3LeafMatcher:  # e.g. a segment with deletions: the slow way
        ids, weights = [], []
        while matcher.is_active():
            ids.append(matcher.id())
            weights.append(matcher.weight())
            matcher.next()
        return ids, weights
    ids: list[int] = []
    weights: list[float] = []
    for at in each_block(matcher):
        data = block(at)
        ids.extend(accumulate(data[0]))
        found = data[1]
        if found is None or isinstance(found, float):
            weights.extend([1.0 if found is None else found] * at._blocklength)
        else:
            weights.extend(found)
    return ids, weights


def _in_a_row(places: list[list[int]]) -> bool:
    """Whether some position ``p`` of the first word has the ``i``-th word at ``p + i``:
    the first word's positions, kept while each later word's, moved back ``i``, hold them
    (sets made and intersected in C; a loop over every start was most of a phrase query
    of two common words, 100 ms at 10k sections)."""
    starts = set(places[0])
    for offset, later in enumerate(places[1:], start=1):
        starts = starts.intersection(map((-offset).__add__, later))
        if not starts:
            return False
    return True


def _leaves(searcher):
    subsearchers = searcher.subsearchers
    if subsearchers:
        return [(sub.reader(), offset) for sub, offset in subsearchers]
    return [(searcher.reader(), 0)]
