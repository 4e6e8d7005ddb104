"""How a search reads what a reader types: other engines' syntax as punctuation. On the
sample course ``make run`` serves, where readers met it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonsearch.query import MAX_ATOMS, parse_query, positive_words
from lessonsearch.searcher import Searcher


@pytest.fixture(scope="module")
def searcher(sample_index: Path):
    opened = Searcher.open(sample_index)
    yield opened
    opened.close()


def places(response) -> list[tuple[str, str | None]]:
    return [(hit.lesson, hit.anchor) for hit in response.results]


# --- Other engines' syntax ------------------------------------------------------------------


@pytest.mark.parametrize(("query", "words"), [
    ("softmax~2", "softmax 2"),  # fuzzy or proximity elsewhere
    ("logit^2", "logit 2"),  # a boost elsewhere
    ("ratio:1", "ratio 1"),  # a field elsewhere, but "ratio" is no field
    ("input/output", "input output"),
    ("softmax,temperature", "softmax temperature"),
    ("[softmax TO temperature]", "softmax temperature"),  # a range elsewhere
    ("{softmax TO temperature}", "softmax temperature"),
    ("soft*", "soft"),  # a wildcard elsewhere
    ("?softmax", "softmax"),
])
def test_other_engines_syntax_is_punctuation_between_words(searcher, query, words) -> None:
    expected = searcher.search(words, limit=50)
    response = searcher.search(query, limit=50)
    assert expected.total > 0
    assert (response.total, places(response)) == (expected.total, places(expected))


@pytest.mark.parametrize("query", ["title:softmax", "heading:softmax", "TEXT:softmax",
                                   "body:softmax", "content:softmax"])
def test_a_field_prefix_is_dropped(searcher, query) -> None:
    """Kept as a word, "title" would pull a section that says "title" alone among the
    softmax ones; the reader asked for softmax, headings first."""
    response = searcher.search(query, limit=50)
    assert places(response) == places(searcher.search("softmax", limit=50))
    assert response.results[0].anchor == "softmax-in-three-steps"
    assert not response.relaxed


def test_a_field_prefix_on_an_excluded_word_excludes_the_word(searcher) -> None:
    assert places(searcher.search("logit -title:softmax", limit=50)) == places(
        searcher.search("logit -softmax", limit=50))


def test_a_name_joined_by_dots_or_hyphens_is_still_a_phrase(searcher) -> None:
    assert places(searcher.search("key-value")) == places(searcher.search('"key value"'))


@pytest.mark.parametrize("query", ["*", "?", "~", "^", ":", "[]", "{}", "title:", "* ? *"])
def test_syntax_alone_searches_nothing(searcher, query) -> None:
    response = searcher.search(query)
    assert (response.total, response.results, response.suggestion) == (0, (), None)


def test_one_long_punctuated_token_is_cut_at_the_atom_limit(searcher) -> None:
    query = ":".join(["logit"] * 85)
    assert len(positive_words(parse_query(query))) == MAX_ATOMS
    assert places(searcher.search(query)) == places(searcher.search("logit"))
