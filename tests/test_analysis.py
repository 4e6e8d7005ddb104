"""The tokenizer every stage shares: its fast path finds the words the pattern finds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessonsearch.analysis import WORD, find_words

# Letters, digits and every character that decides where a word ends: apostrophes straight
# and curly, underscores, dots, hyphens, spaces of several kinds, and letters beyond ASCII.
PIECES = st.sampled_from(list("ab'’_.-9 \n\t\u00a0é—Ω") + ["don't", "it's", "numpy.mean",
                                                          "data_file", "''", "x'"])


@given(st.lists(PIECES).map("".join))
def test_finds_the_words_the_pattern_finds(text: str) -> None:
    assert find_words(text) == WORD.findall(text)


@given(st.one_of(st.text(), st.text(st.characters(max_codepoint=127))))
def test_finds_the_words_of_any_text(text: str) -> None:
    assert find_words(text) == WORD.findall(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("don't 'quoted' a''b", ["don't", "quoted", "a", "b"]),
    ("numpy.mean(data_file)", ["numpy", "mean", "data", "file"]),
    ("the model’s café—bar", ["the", "model’s", "café", "bar"]),
    ("", []),
])
def test_words(text: str, expected: list[str]) -> None:
    assert find_words(text) == expected
