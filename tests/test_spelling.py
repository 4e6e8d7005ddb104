"""Corrections come from the course's own words: nearest first, then most used."""

from __future__ import annotations

from lessonsearch.spelling import Speller


def test_one_edit_of_every_kind_is_found():
    speller = Speller(["temperature", "attention", "tokenizer"])
    assert speller.candidates("temprature", 2) == [(1, "temperature")]  # a letter dropped
    assert speller.candidates("atention", 1) == [(1, "attention")]
    assert speller.candidates("tokenizre", 1) == [(1, "tokenizer")]  # two letters swapped
    assert speller.candidates("tokenizar", 1) == [(1, "tokenizer")]  # a letter changed


def test_nearest_first_and_nothing_past_the_distance():
    speller = Speller(["hallucination", "hallucinations", "halt"])
    assert speller.candidates("halucinations", 2)[0] == (1, "hallucinations")
    assert speller.candidates("halucinations", 1) == [(1, "hallucinations")]
    assert speller.candidates("xyz", 2) == []


def test_a_different_first_letter_is_not_a_correction():
    assert Speller(["cache"]).candidates("kache", 1) == []


def test_accents_are_no_edit_on_either_side():
    speller = Speller(["embedding", "embeddings", "naïve", "café"])
    assert speller.candidates("émbedding", 0) == [(0, "embedding")]
    assert speller.candidates("naive", 0) == [(0, "naïve")]
    assert speller.candidates("cafè", 0) == [(0, "café")]
    assert speller.candidates("émbedings", 1) == [(1, "embeddings")]  # an accent, a letter
    assert speller.candidates("embedding", 0) == []  # itself is no candidate


def test_the_words_a_prefix_begins():
    speller = Speller(["softmax", "soft", "software", "sampling", "café"])
    assert sorted(speller.starting("soft")) == ["softmax", "software"]  # not itself
    assert speller.starting("cafe") == ["café"]  # accents aside
    assert speller.starting("zz") == []
