"""Counts in words, as the HTML pages print them."""

from __future__ import annotations

import pytest

from lessonsearch.counts import counted, plural


@pytest.mark.parametrize("count, words", [(0, "0 lessons"), (1, "1 lesson"), (2, "2 lessons")])
def test_a_count_takes_the_singular_only_for_one(count, words):
    assert counted(count, "lesson") == words


def test_an_irregular_plural_is_given():
    assert counted(1, "entry", "entries") == "1 entry"
    assert counted(3, "entry", "entries") == "3 entries"
    assert plural("entry", 3, "entries") == "entries"
