"""The tokenizer every stage shares: its fast path finds the words the pattern finds; and
the stemmer, which gives a word made with -ize or -ise a stem apart from the word it was made
from."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessonsearch.analysis import (
    WORD,
    _stemmer,
    american,
    find_words,
    ion_nouns,
    made_from,
    stem,
    verb_of,
    words,
)

# Letters, digits and every character that decides where a word ends: apostrophes straight
# and curly, underscores, dots, hyphens, spaces of several kinds, letters beyond ASCII, and
# the ``++`` and ``#`` that end a language's name.
PIECES = st.sampled_from(list("ab'’_.-9 \n\t\u00a0é—Ω+#") + ["don't", "it's", "numpy.mean",
                                                            "data_file", "''", "x'", "C++",
                                                            "C#", "++", "#x"])


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
    ("C++, C# and F#. C#'s g++", ["C++", "C#", "and", "F#", "C#", "s", "g++"]),
    ("x#y #tag page.html#part a+b C+++ C++11 C#7 i++;", [
        "x", "y", "tag", "page", "html", "part", "a", "b", "C", "C++", "11", "C", "7", "i++"]),
    ("count++; total++ numItems++ x2++ Count++ Notepad++ clang++ 3++ don't++", [
        "count", "total", "numItems", "x2", "Count++", "Notepad++", "clang", "3++", "don't"]),
    ("Ωmega# C♯", ["Ωmega#", "C"]),
    ("", []),
])
def test_words(text: str, expected: list[str]) -> None:
    assert find_words(text) == expected


def test_words_are_found_before_they_are_lower_cased() -> None:
    """As the index finds them: the case a ``++`` word is written in says whether it is a
    name or an increment."""
    assert words("Notepad++ and notepad++; C++11 ‘quoted’") == [
        "notepad++", "and", "notepad", "c++", "11", "quoted"]


TOKENIZE = ("tokenize tokenizes tokenized tokenizing tokenizer tokenizers tokenizer's "
            "tokenization tokenizations tokenise tokenises tokenised tokenising tokeniser "
            "tokenisers tokenisation").split()


def test_an_ize_family_has_one_stem_of_its_own() -> None:
    assert {stem(w) for w in TOKENIZE} == {"tokeniz"}
    assert {made_from(w) for w in TOKENIZE} == {("token", "tokeni")}
    assert stem("token") == "token"
    for base, made in [("normal", "normalization"), ("regular", "regularization"),
                       ("general", "generalisation"), ("organ", "organization"),
                       ("optimal", "optimizer")]:
        assert stem(base) != stem(made)
        assert stem(base) in made_from(made)
        assert made_from(base) == ()
    assert stem("optimiser") == stem("optimization") == stem("optimizing")


@pytest.mark.parametrize(("base", "made"), [
    ("summary", "summarize"), ("summaries", "summarised"), ("category", "categorize"),
    ("categories", "categorisation"), ("memory", "memorize"), ("apology", "apologise"),
    ("theory", "theorize"), ("priority", "prioritization"), ("economy", "economize"),
    ("emphasis", "emphasizes"), ("hypothesis", "hypothesize"),  # -y, -is
    ("pressure", "pressurized"), ("oxide", "oxidize"), ("sterile", "sterilise"),  # -e
    ("crystal", "crystallize"), ("metal", "metallised"), ("tranquil", "tranquillizer"),
    ("container", "containerize"), ("character", "characterization"),
    ("real", "realize"), ("ion", "ionization"), ("general", "generalizable"),
    ("capital", "capitalization"), ("initial", "initialise"), ("visual", "visualizing"),
])
def test_an_ize_word_counts_for_the_stem_its_base_word_has(base: str, made: str) -> None:
    """The base word's own stem, not Snowball's of the -ize word: "summarize" is cut to
    "summar", which no form of "summary" ("summari") is; "realize" is left whole."""
    assert stem(base) in made_from(made)
    assert stem(made) not in made_from(made)


@pytest.mark.parametrize(("verb", "noun"), [
    ("repeated", "repetition"), ("define", "definitions"), ("compose", "composition"),
    ("decides", "decision"), ("expand", "expansion"), ("extending", "extensions"),
    ("conclude", "conclusion"), ("explained", "explanation"), ("permit", "permission"),
    ("converting", "conversion"), ("describe", "description"), ("assume", "assumption"),
    ("reduce", "reduction"), ("solving", "solutions"), ("convolve", "convolution"),
    ("receive", "reception"), ("classify", "classification"), ("add", "addition"),
])
def test_an_ion_noun_gives_the_stem_of_its_verb(verb: str, noun: str) -> None:
    """Snowball stems these nouns apart from their verbs ("repetit", "repeat"). The index
    does not count the noun for its verb, as it counts an -ize word for its base word: the
    search reads the family (``query_plan.plan``)."""
    assert stem(noun) != stem(verb)
    assert verb_of(noun) == (stem(verb),)
    assert verb_of(verb) == made_from(noun) == ()


@pytest.mark.parametrize(("verb", "noun"), [
    ("decide", "decision"), ("explain", "explanation"), ("repeat", "repetition"),
    ("permit", "permission"), ("convert", "conversion"), ("describe", "description"),
    ("solve", "solution"), ("classify", "classification"), ("expand", "expansion"),
])
def test_a_verb_gives_the_ion_noun_its_stem_is_read_from(verb: str, noun: str) -> None:
    """``verb_of`` read backwards: what corrects "decission" in a course that writes only
    "decide"."""
    assert ion_nouns(stem(verb)) == (noun, noun + "s")


@pytest.mark.parametrize("verb", ["edit", "limit", "depend", "remain", "report", "ahead",
                                  "choose", "decode", "avoid", "start"])
def test_a_verb_whose_ending_no_rule_s_example_shares_gives_no_ion_noun(verb: str) -> None:
    """"edission", "depension", "remanation", "reporsion", "aheasion": no words."""
    assert ion_nouns(stem(verb)) == ()


@pytest.mark.parametrize("noun", [
    "nation", "station", "position", "mission", "condition", "partition", "petition",
    "edition", "attention", "question", "section", "version", "ration", "replication",
    "calculation", "prediction", "computation", "designation",
])
def test_an_ion_noun_not_made_from_its_stem_cut_short_counts_for_nothing(noun: str) -> None:
    """No "nat", "stat", "pos", "cond" or "part": a rule that joins more words wrongly than
    rightly is left out; and a noun that shares its verb's stem needs nothing."""
    assert verb_of(noun) == made_from(noun) == ()


@pytest.mark.parametrize("family", [
    "analyse analyze analyses analyzes analysed analyzed analysing analyzing analyser "
    "analyzer analysers analyzers analysable analyzable",
    "paralyse paralyze paralysed paralyzed paralysing paralyzing",
    "catalyse catalyze catalysed catalyzed catalyser catalyzer",
    "hydrolyse hydrolyze",
])
def test_a_british_yse_is_the_american_yze(family: str) -> None:
    assert len({stem(w) for w in family.split()}) == 1
    assert stem("analysis") != stem("analyse") and stem("analyst") != stem("analyse")


NOT_MADE_WITH_IZE = (
    "rise size prize seize noise poise raise praise cruise disguise precise concise exercise "
    "excise incise advise devise revise supervise televise improvise wise otherwise pairwise "
    "elementwise likewise promise compromise premise demise surmise surprise enterprise "
    "comprise sunrise despise advertise chastise expertise treatise franchise "
    "merchandise paradise denoise").split()
"""Practise is no -ise either, but the British verb of practice (``american``)."""


@pytest.mark.parametrize("word", NOT_MADE_WITH_IZE)
def test_a_word_that_merely_ends_in_ise_keeps_its_snowball_stem(word: str) -> None:
    base = word[:-1]
    for form in (word, word + "s", word + "d", word + "r", word + "rs", base + "ing"):
        assert stem(form) == _stemmer.stem(form), form
        assert made_from(form) == (), form


@pytest.mark.parametrize("family", [
    "behaviour behavior behaviours behaviors behavioural behavioral",
    "favour favor favoured favored favouring favoring favours favors",
    "favourite favorite favourites favorites",
    "colour color colours colors coloured colored colourful colorful",
    "neighbour neighbor neighbouring neighboring",
    "honour honor honourable honorable",
    "labour labor laboured labored",
    "vapour vapor", "tumour tumor", "harbour harbor", "armour armor", "rumour rumor",
    "flavour flavor flavoured flavored", "humour humor", "odour odor", "vigour vigor",
    "labelling labeling labelled labeled label", "modelling modeling modelled modeled model",
    "traveller traveler travelled traveled", "cancelled canceled cancelling canceling",
    "signalling signaling", "levelled leveled", "fuelled fueled", "tunnelling tunneling",
    "channelled channeled", "totalled totaled", "counselled counseled", "counsellor counselor",
    "dialled dialed", "equalled equaled", "marvelled marveled marvellous marvelous",
    "centre center centres centers centred centered centring centering",
    "metre meter metres meters", "kilometres kilometers", "litre liter", "fibre fiber",
    "calibre caliber", "theatre theater", "lustre luster", "sombre somber", "spectre specter",
    "catalogue catalog catalogues catalogs catalogued cataloged", "dialogue dialog",
    "analogue analog analogues analogs",
    "defence defense defences defenses", "offence offense", "licence license", "pretence pretense",
    "practise practice practised practiced practising practicing",
    "artefact artifact artefacts artifacts", "grey gray greys grays", "greyscale grayscale",
    "aluminium aluminum", "sceptical skeptical sceptic skeptic", "mould mold moulded molded",
    "plough plow ploughed plowed", "judgement judgment judgements judgments",
    "colourise colorize colourised colorized",  # -our and -ise in one word
])
def test_a_british_spelling_is_the_american_one(family: str) -> None:
    """Snowball stemmed "behaviour" and "behavior", "labelling" and "label" apart: a search
    for favor found nothing in a course that writes "favoured"."""
    assert len({stem(w) for w in family.split()}) == 1, {w: stem(w) for w in family.split()}


@pytest.mark.parametrize("word", (
    "four hour your our tour pour flour sour detour contour devour glamour velour filled "
    "called controlled filling filing tilled tiled cancellation medallion genre acre "
    "mediocre ogre massacre lucre macabre rogue vogue prologue synagogue fence hence science "
    "string literal metric symmetric theatrical spectrum program programme tire curb story "
    "draft check").split())
def test_a_word_only_like_a_british_spelling_is_left_as_it_is(word: str) -> None:
    """The lists are of word families, not rules: -our→-or would make "four" "for", one l
    for two "filling" "filing", -re→-er "acre" "acer"."""
    assert american(word) == word
    assert stem(word) == _stemmer.stem(word)
