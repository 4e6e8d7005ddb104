"""Counting matches on bitmaps and scoring from whole posting blocks changes no answer.

The searcher counts a query's matches on bitmaps and ranks word queries from whole posting
blocks, anything else with Whoosh's matchers (``top_hits``). Every response must equal the one
the plain way gives: scoring every matching posting and counting as it goes. Checked on the
sample course and on a generated course of several segments, over words, phrases, operators,
filters, questions and pages.
"""

from __future__ import annotations

import sys
from collections import Counter
from functools import partial
from pathlib import Path

import pytest
from whoosh import query as wq

from lessonsearch import searcher as searcher_module
from lessonsearch.build import build_index
from lessonsearch.query import parse_query
from lessonsearch.query_plan import plan
from lessonsearch.searcher import DEFINING_BOOST, Searcher
from lessonsearch.whoosh_index import CONTENT
from lessonsearch.word_scoring import (
    FAVOUR_READ,
    PHRASE_SHARE,
    SIDE_BY_SIDE_BONUS,
    WordScorer,
    _lengths,
    can_score,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from generate_course import TOPIC, VERBS, generate  # noqa: E402

QUERIES = [
    "attention", "the", "model", "token", "cache", "learning rate", "attention head",
    "embedding", "tokens", "hallucination", "soft-max", "tokens -cache",
    '"learning rate"', '"the model"', "attention OR cache", "model -attention",
    "token AND NOT vocabulary", "how does the cache grow", "what is a logit",
    "temprature", "atention head", "numpy.mean", "reads writes predicts",
    '"the next token"', '"token token"', '"attention head" -cache', '"learning rate" OR cache',
    'model "key value"', "how does fine-tuning change the model", "fine-tuning",
    "(attention OR cache) -model", "what is the key value cache and why does it grow",
    "window OR -head", "temperature OR -head", "probability OR -fine-tuning",
    # phrases among the most words (a search that found nothing, relaxed), written again
    '"the model" "learning rate" "zebra quokka"', '"the model" "the the" "of the" "qqq zzz"',
    '"attention head" fine-tuning "zebra quokka"', '"key value" -cache "zebra quokka"',
    '"the model" "the model" cache', '"the model" OR "the model" OR "learning rate"',
    'how does "the model" grow', 'what is "learning rate" "zebra quokka"',
    *[f"{a} {b}" for a, b in zip(TOPIC[:40], VERBS * 2, strict=False)],
    *TOPIC[:60],
]


class PlainSearcher(Searcher):
    """The slow, sure way: every match scored and ranked, the page cut from all of them.

    (Not Whoosh's count of a limited search: with a phrase in an OR it missed a match.) A
    lesson's summary or check question, the higher of the two (the first in course order on
    a tie), that scores above its lesson's best section trades scores with it, as the stored
    fields tell which they are. The sections that define the term a query names alone
    score ``DEFINING_BOOST`` times as much, before any trade, and each match writing the
    query's words side by side is raised for it (``SIDE_BY_SIDE_BONUS``), read by Whoosh's
    phrase matcher in every match, not only in those that could reach the page.
    """

    def _run(self, searcher, q, page, limit, filter_q, boosted=frozenset(), side_by_side=()):
        if q is None:
            return [], 0
        results = searcher.search(q, limit=None, filter=filter_q, optimize=False)
        place = {hit.docnum: (hit["position"], hit.get("section") or 0) for hit in results}
        scores = {hit.docnum: hit.score * (DEFINING_BOOST if hit.docnum in boosted else 1)
                  for hit in results}
        written = Counter(d for run in side_by_side  # every match read with Whoosh's phrase
                          for d in searcher.docs_for_query(wq.Phrase(CONTENT, list(run))))
        favoured = _favoured(results, scores, page * limit)
        for docnum, count in written.items():
            if docnum in favoured:
                scores[docnum] *= 1 + SIDE_BY_SIDE_BONUS * count / len(side_by_side)
        sections: dict[str, list[int]] = {}
        for hit in sorted(results, key=lambda hit: place[hit.docnum]):
            if hit["kind"] == "section":
                sections.setdefault(hit["lesson"], []).append(hit.docnum)
        parts: dict[str, int] = {}  # each lesson's best summary or check
        for hit in sorted(results, key=lambda hit: place[hit.docnum]):
            other = parts.get(hit["lesson"])
            if hit["kind"] != "section" and (
                    other is None or round(hit.score, 9) > round(scores[other], 9)):
                parts[hit["lesson"]] = hit.docnum
        for lesson, part in parts.items():
            if lesson in sections:
                best = max(sections[lesson], key=lambda d: round(scores[d], 9))  # first of ties
                if round(scores[part], 9) > round(scores[best], 9):
                    scores[part], scores[best] = scores[best], scores[part]
        ranked = sorted(scores, key=lambda d: (-round(scores[d], 9), place[d]))
        return [(scores[d], d) for d in ranked[(page - 1) * limit : page * limit]], len(ranked)


def _favoured(results, scores: dict[int, float], wanted: int) -> set[int]:
    """The sections the bonus for words side by side may go to: those within its reach of
    the page, at most ``FAVOUR_READ`` times the page's, the best (the first in the index
    among equals), and the sections of the lessons of the summaries and checks among them."""
    if len(scores) <= wanted:
        return set(scores)
    reach = sorted(scores.values(), reverse=True)[wanted - 1] / (1 + SIDE_BY_SIDE_BONUS) - 1e-8
    near = sorted((d for d, s in scores.items() if s >= reach),
                  key=lambda d: (-scores[d], d))[:FAVOUR_READ * wanted]
    lessons = {hit["lesson"] for hit in results if hit.docnum in near
               and hit["kind"] != "section"}
    return set(near) | {hit.docnum for hit in results
                        if hit["kind"] == "section" and hit["lesson"] in lessons}


@pytest.fixture(scope="module")
def generated_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("generated")
    generate(folder / "course", 2500)
    build_index(folder / "course" / "lessons", folder / "course" / "glossary",
                folder / "index")
    return folder / "index"


def same_answers(index_dir: Path, filters: list[dict]) -> int:
    fast, plain = Searcher.open(index_dir), PlainSearcher.open(index_dir)
    compared = 0
    try:
        for query in QUERIES:
            for options in filters:
                for page, limit in ((1, 10), (2, 10), (1, 3), (4, 7)):
                    ours = fast.search(query, limit=limit, page=page, **options)
                    theirs = plain.search(query, limit=limit, page=page, **options)
                    assert ours == theirs, (query, options, page, limit)
                    compared += bool(theirs.results)
    finally:
        fast.close()
        plain.close()
    return compared


def test_the_sample_course_answers_as_before(sample_index: Path) -> None:
    compared = same_answers(sample_index, [{}, {"module": "from-text-to-numbers"},
                                           {"lesson": "what-is-a-language-model"}])
    assert compared > 100


def test_a_course_of_several_segments_answers_as_before(generated_index: Path) -> None:
    searcher = Searcher.open(generated_index)
    try:
        segments = len(searcher.whoosh_searcher().reader().leaf_readers())
        lesson = searcher.search("attention").results[0].lesson
    finally:
        searcher.close()
    assert segments >= 2
    assert same_answers(generated_index, [{}, {"lesson": lesson}]) > 200


@pytest.mark.parametrize("query", ["window OR -head", "temperature OR -head",
                                   "probability OR -fine-tuning"])
def test_a_query_under_not_that_whoosh_scores_keeps_its_best_sections(
        generated_index: Path, query: str) -> None:
    """An OR beside a NOT goes to Whoosh's matchers, not to our block scorer. Whoosh's
    collector dropped matchers whose best score could not reach the page, and a NOT's matcher
    gives the excluded word's best score as its own, where it scores 1: "window OR -head" lost
    its third section, "temperature OR -head" its ninth, "probability OR -fine-tuning" its
    first (tied with the second, earlier in the course)."""
    assert not can_score(plan(parse_query(query)).query, CONTENT)
    fast, plain = Searcher.open(generated_index), PlainSearcher.open(generated_index)
    try:
        assert fast.search(query) == plain.search(query)
    finally:
        fast.close()
        plain.close()


def test_document_lengths_are_read_whole_as_whoosh_reads_them_one_at_a_time(
        generated_index: Path) -> None:
    """Scores use every document's length; the first query to reach a segment reads them."""
    searcher = Searcher.open(generated_index)
    try:
        leaves = [leaf for leaf, _ in searcher.whoosh_searcher().reader().leaf_readers()]
        for leaf in leaves:
            one_by_one = [leaf.doc_field_length(d, CONTENT, 1) or 1
                          for d in range(leaf.doc_count_all())]
            assert list(_lengths(leaf, CONTENT)) == one_by_one
            assert len(set(one_by_one)) > 1
    finally:
        searcher.close()
    assert len(leaves) >= 2


def _bytes_kept(phrases: dict) -> int:
    """What the kept phrases hold: the table, each key and its words, each array."""
    held = sys.getsizeof(phrases)
    for key, found in phrases.items():
        held += sys.getsizeof(key) + sys.getsizeof(key[1])
        arrays = found if isinstance(found, tuple) else (found,)
        held += sys.getsizeof(found) * isinstance(found, tuple)
        held += sum(sys.getsizeof(each) for each in arrays)
    return held


def test_the_phrases_kept_stay_within_their_budget_and_change_no_answer(
        generated_index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Most phrases a segment is asked for are in none of its sections; each kept answer
    still costs its entry, so a long-running server asked new phrases kept more and more
    of them (3.4 MB at 100,000 sections after 600 searches, for a 0.4 MB budget). With a
    small budget the kept phrases stay within it, in bytes, and every page is the one
    a searcher with the whole budget gives."""
    budget = 16_000
    monkeypatch.setattr(searcher_module, "WordScorer", partial(WordScorer, budget=budget))
    small = Searcher.open(generated_index)
    monkeypatch.undo()
    whole = Searcher.open(generated_index)
    nowhere = [f'"{word} quokka"' for word in TOPIC[:60]]  # words no section writes after
    side_by_side = [f"{a} {b}" for a, b in zip(TOPIC[:40], TOPIC[40:80], strict=False)]
    try:
        for query in [*QUERIES, *nowhere, *side_by_side, *QUERIES[:20]]:
            for page in (1, 2):
                assert small.search(query, page=page) == whole.search(query, page=page), query
        kept = small._words._phrases
        assert len(whole._words._phrases) > len(kept) > 0
        assert _bytes_kept(kept) <= 4 * budget // PHRASE_SHARE * 1.25
    finally:
        small.close()
        whole.close()
