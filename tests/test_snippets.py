"""Snippets: the window with the most query words, escaped, matches in <mark>."""

from __future__ import annotations

from lessonsearch.analysis import stem
from lessonsearch.snippets import snippet


def marks(*words: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


def test_matches_by_stem_and_marks_the_words_as_written():
    got = snippet("The loss was calculated after every step.", marks("calculation"))
    assert got == "The loss was <mark>calculated</mark> after every step."


def test_everything_else_is_escaped():
    got = snippet('Write <script>alert("x")</script> & a <b>cache</b> note.', marks("cache"))
    assert "<script>" not in got and "&lt;script&gt;" in got and "&amp;" in got
    assert "&lt;b&gt;<mark>cache</mark>&lt;/b&gt;" in got


def test_the_window_with_the_most_different_words_wins():
    filler = "Words about nothing in particular fill this part of the text. " * 10
    text = f"A cache appears here. {filler}Here the cache stores keys and values. {filler}"
    got = snippet(text, marks("cache", "keys", "values"), width=80)
    assert "<mark>keys</mark> and <mark>values</mark>" in got
    assert got.startswith("…") and got.endswith("…")


def test_reads_past_the_first_32k_characters():
    text = "word " * 10_000 + "the needle is here"
    assert "<mark>needle</mark>" in snippet(text, marks("needle"))


def test_no_match_no_snippet():
    assert snippet("Nothing relevant.", marks("cache")) == ""
    assert snippet("", marks("cache")) == ""
