"""Finding glossary terms in text, whatever form the writer gave them."""

from __future__ import annotations

import pickle
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessonsearch.analysis import find_words
from lessonsearch.model import GlossaryEntry, LessonDefinition
from lessonsearch.term_forms import term_key
from lessonsearch.term_matching import TermMatcher, title_rule


@pytest.fixture(scope="module")
def matcher():
    return TermMatcher(
        {
            "key-value cache": ["KV cache"],
            "retrieval-augmented generation": ["RAG"],
            "attention mask": ["causal mask"],
            "token": [],
            "tokenizer": ["tokenization"],
            "overfitting": [],
            "file system": [],
            "learning rate": ["LR"],
            "Make": [],
            "mask": [],
        }
    )


def found(matcher, text):
    return [(term, text[start:end]) for term, start, end in matcher.spans(text)]


def test_plural_and_other_inflections(matcher):
    assert found(matcher, "Tokens matter. The model overfits; overfitting hurts.") == [
        ("token", "Tokens"), ("overfitting", "overfits"), ("overfitting", "overfitting"),
    ]


def test_inflections_count_but_derivations_that_share_a_stem_do_not():
    matcher = TermMatcher({"head": [], "compute": [], "embedding": [], "query": []})
    text = "Headings and computers; heads, computed embeddings and two queries."
    assert found(matcher, text) == [
        ("head", "heads"), ("compute", "computed"), ("embedding", "embeddings"),
        ("query", "queries"),
    ]
    assert matcher.canonical_for("headings") is None


def test_a_sibling_derivation_of_the_stem_is_no_mention_of_the_term():
    matcher = TermMatcher({"transformer": [], "computer": [], "embedding": [],
                           "attention heads": [], "overfitting": []})
    text = ("It transformed and is transforming; Computing and Computed; embedded. "
            "Transformers, a computer, embeddings, an attention head; it overfits.")
    assert found(matcher, text) == [
        ("transformer", "Transformers"), ("computer", "computer"),
        ("embedding", "embeddings"), ("attention heads", "attention head"),
        ("overfitting", "overfits"),
    ]
    assert matcher.canonical_for("transformed") is None
    assert matcher.canonical_for("embedded") is None


def test_names_ending_in_a_language_symbol_are_terms_of_their_own():
    matcher = TermMatcher({"C": [], "C++": [], "C#": ["C sharp"], "compiler": []})
    text = "C++ and C and C#, a C++ compiler, C sharp."
    assert found(matcher, text) == [
        ("C++", "C++"), ("C", "C"), ("C#", "C#"), ("C++", "C++"), ("compiler", "compiler"),
        ("C#", "C sharp"),
    ]
    assert matcher.mentions(text) == {"C++": 2, "C": 1, "C#": 2, "compiler": 1}
    assert [matcher.canonical_for(n) for n in ("c++", "c#", "c", "C sharp")] == [
        "C++", "C#", "C", "C#"]


def test_hyphen_space_and_run_together_spellings(matcher):
    text = "a key-value cache, a key value cache, the keyvalue caches and a filesystem"
    assert found(matcher, text) == [
        ("key-value cache", "key-value cache"),
        ("key-value cache", "key value cache"),
        ("key-value cache", "keyvalue caches"),
        ("file system", "filesystem"),
    ]


def test_aliases_and_abbreviations_count_for_their_term(matcher):
    counts = matcher.mentions("The KV cache grows. KV-caches help. RAG fetches text for RAG.")
    assert counts == {"key-value cache": 2, "retrieval-augmented generation": 2}


def test_capital_abbreviation_matches_only_in_capitals(matcher):
    assert matcher.mentions("Wipe the bench with a rag, then a clean rag.") == {}
    assert matcher.mentions("Our lr was too high.") == {}
    assert matcher.mentions("Our LR was too high.") == {"learning rate": 1}


def test_capitalised_one_word_term_does_not_match_the_everyday_word(matcher):
    assert matcher.mentions("We make a copy and run Make.") == {"Make": 1}


def test_curly_and_straight_quotes(matcher):
    assert matcher.mentions("“Overfitting” and \"overfitting\" and ‘tokens’") == {
        "overfitting": 2, "token": 1,
    }


def test_multi_word_terms_match_as_phrases_only_longest_first(matcher):
    assert found(matcher, "attention to the mask") == [("mask", "mask")]
    assert found(matcher, "The attention masks and a causal mask.") == [
        ("attention mask", "attention masks"), ("attention mask", "causal mask"),
    ]


def test_terms_sharing_a_stem_stay_apart(matcher):
    assert found(matcher, "A tokenizer splits text into tokens; tokenizers differ.") == [
        ("tokenizer", "tokenizer"), ("token", "tokens"), ("tokenizer", "tokenizers"),
    ]


def test_a_british_spelling_is_the_american_term(matcher):
    assert found(matcher, "The tokeniser splits text; tokenisers differ; tokenisation.") == [
        ("tokenizer", "tokeniser"), ("tokenizer", "tokenisers"), ("tokenizer", "tokenisation"),
    ]
    assert matcher.canonical_for("Tokenisers") == "tokenizer"
    assert matcher.canonical_for("tokenise") is None  # the verb is no form of either name
    assert term_key("Normalisation") == term_key("normalizations") == "normalization"
    assert "z" not in term_key("promise")  # a word that merely ends in -ise


def test_a_british_yse_is_the_american_yze():
    matcher = TermMatcher({"static analyzer": [], "paralysis": []})
    assert found(matcher, "Static analysers and a static analyser.") == [
        ("static analyzer", "Static analysers"), ("static analyzer", "static analyser")]
    assert matcher.canonical_for("static analyser") == "static analyzer"
    assert term_key("analyse") == term_key("analyze") and term_key("paralysis") == "paralysis"


def test_an_increment_is_no_name_and_a_standard_mentions_its_language():
    matcher = TermMatcher({"C++": [], "count": [], "Notepad++": [], "C": []})
    text = "In C++11 and C++17, count++ adds one; Notepad++ is no notepad, g++ no C."
    assert found(matcher, text) == [("C++", "C++"), ("C++", "C++"), ("count", "count"),
                                    ("Notepad++", "Notepad++"), ("C", "C")]
    assert matcher.canonical_for("count++") == "count"
    assert matcher.canonical_for("C++11") is None
    listed = TermMatcher({"count++": [], "clang++": []})
    assert found(listed, "count++ and clang++") == [("count++", "count"),
                                                    ("clang++", "clang")]


def test_spans_are_offsets_into_the_original_text(matcher):
    text = "Ça va: the KV‑cache (non-breaking hyphen) and “RAG”."
    for term, start, end in matcher.spans(text):
        assert matcher.canonical_for(text[start:end]) == term


def test_canonical_for_any_variant_spelling(matcher):
    assert matcher.canonical_for("kv caches") == "key-value cache"
    assert matcher.canonical_for("Key Value Cache") == "key-value cache"
    assert matcher.canonical_for("keyvalue cache") == "key-value cache"
    assert matcher.canonical_for("rag") == "retrieval-augmented generation"
    assert matcher.canonical_for("Tokenizers") == "tokenizer"
    assert matcher.canonical_for("tokens") == "token"
    assert matcher.canonical_for("cache") is None


def test_suggestions_for_a_typo_and_a_shared_word(matcher):
    assert matcher.suggest("atention mask")[0] == "attention mask"
    assert matcher.suggest("overfiting") == ("overfitting",)
    assert "key-value cache" in matcher.suggest("cache")
    assert matcher.suggest("zebra crossing") == ()


def test_from_glossary_adds_lesson_abbreviations_and_lesson_only_terms():
    entries = [GlossaryEntry("large language model", "A big model.", "glossary/g.md:1")]
    definitions = [
        LessonDefinition("large language models", "…", "intro", "u", abbreviation="LLM"),
        LessonDefinition("warm start", "…", "tuning", "u"),
    ]
    matcher = TermMatcher.from_glossary(entries, definitions)
    assert matcher.terms == ("large language model", "warm start")
    assert matcher.mentions("LLMs and a warm start") == {
        "large language model": 1, "warm start": 1,
    }


def test_term_key_ignores_case_and_plural_but_not_suffixes():
    assert term_key("KV Caches") == term_key("kv cache")
    assert term_key("Queries") == term_key("query") == "query"
    assert term_key("matches") == term_key("match")
    assert term_key("tokenizer") != term_key("token")


def test_fast_for_many_terms_and_a_long_text():
    terms = {f"term{i} word{i % 7}": [f"T{i % 100}X"] for i in range(500)}
    start = time.perf_counter()
    matcher = TermMatcher(terms)
    text = " ".join(f"some prose with term{i % 600} word{i % 7} and more" for i in range(12_500))
    counts = matcher.mentions(text)
    elapsed = time.perf_counter() - start
    assert sum(counts.values()) > 1000
    assert elapsed < 2.0  # well under a second on a developer machine; slack for CI


BASE = {"attention": [], "KV cache": ["key-value cache"], "Git": [], "bag of words": [], "loss": []}
MORE = {**BASE, "attention head": ["heads of attention"], "RAG": [], "mixture of experts": []}
WORDS = ["attention", "Attention", "head", "heads", "of", "the", "KV", "cache", "key-value",
         "RAG", "rags", "Git", "git", "bag", "words", "mixture", "experts", "headings", "."]


@given(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join), st.booleans())
def test_text_holding_no_changed_word_is_scanned_alike_by_both_matchers(text, adding):
    """What lets a rebuild keep a lesson's mentions when glossary entries come and go."""
    before, after = (TermMatcher(BASE), TermMatcher(MORE))[::1 if adding else -1]
    changed = after.changed_words(before)
    if not any(map(changed, find_words(text))):
        assert before.mentions(text) == after.mentions(text)


def test_changed_words_are_those_a_changed_term_starts_with_or_a_changed_stem():
    changed = TermMatcher(MORE).changed_words(TermMatcher(BASE))
    assert [w for w in WORDS if changed(w)] == [
        "attention", "Attention", "head", "heads", "RAG", "rags", "mixture", "headings"]
    # "of" and "experts" start no mention of the new terms: "mixture" must come first.
    # "headings" shares the stem of "head", a new term word, and is no inflection of it.
    assert TermMatcher(BASE).mentions("The attention head.") == {"attention": 1}
    assert TermMatcher(MORE).mentions("The attention head.") == {"attention head": 1}


def test_the_title_rule_follows_most_names():
    assert title_rule(["Git", "make", "shell"]) and not title_rule(["Git", "Make", "shell"])
    assert TermMatcher(BASE).title_rule is title_rule(BASE)
    assert TermMatcher({"Git": [], "Make": []}).changed_words(TermMatcher(BASE)) is None


def test_a_pickled_matcher_finds_what_it_found_and_is_made_once_per_process():
    """A build sends the matcher with every batch of lessons to its other processes: each
    gets the one it made for those terms, with the words it has already learnt."""
    matcher = TermMatcher(MORE)
    text = "The attention head and RAG, with a mixture of experts."
    sent = pickle.dumps(matcher)
    first, again = pickle.loads(sent), pickle.loads(sent)
    assert first.mentions(text) == matcher.mentions(text) != {}
    assert again is first and first is not matcher
    assert pickle.loads(pickle.dumps(TermMatcher(BASE))).mentions(text) == \
        TermMatcher(BASE).mentions(text)
