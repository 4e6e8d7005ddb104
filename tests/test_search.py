"""Searching the tiny course index: ranking, analysis, the query language, snippets, paging."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from course_fixtures import open_course
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessonsearch import responses
from lessonsearch.build import build_index
from lessonsearch.errors import BadQuery
from lessonsearch.model import text_fragment
from lessonsearch.query import names_words, only_excludes, parse_query
from lessonsearch.query_plan import plan
from lessonsearch.searcher import MAX_LIMIT, MAX_QUERY_CHARS, Searcher
from lessonsearch.whoosh_index import CONTENT
from lessonsearch.word_scoring import can_score

MARKDOWN = Path(__file__).resolve().parent / "data" / "markdown"
NOTES_URL = "https://courses.example.test/tiny/notes"


@pytest.fixture(scope="module")
def searcher(tiny_index: Path):
    opened = Searcher.open(tiny_index)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def markdown_searcher(tmp_path_factory: pytest.TempPathFactory):
    """The Markdown fixtures as a course of their own: their text has ``<``, ``>`` and ``&``."""
    out = tmp_path_factory.mktemp("markdown") / "index"
    build_index(MARKDOWN, None, out)
    opened = Searcher.open(out)
    yield opened
    opened.close()


def places(response) -> list[tuple[str, str | None]]:
    return [(hit.lesson, hit.anchor) for hit in response.results]


# --- Ranking and analysis -----------------------------------------------------------------


def test_a_heading_match_outranks_a_body_mention(searcher) -> None:
    """The heading that writes the query's word outranks every section that writes it only in
    its body. (The one-line "Try it" callout, "Count the tokens in your own name.", comes
    after "Counting tokens in a sentence": BM25 favours so short a section, but not over a
    heading. "What is a token?", which defines the term the query names, comes first:
    ``DEFINING_BOOST``.)"""
    hits = searcher.search("tokens").results
    assert [h.anchor for h in hits[:2]] == ["what-is-a-token", "counting-tokens-in-a-sentence"]
    elsewhere = [h.score for h in hits if not (h.heading and "token" in h.heading.lower())]
    assert elsewhere and hits[0].score > max(elsewhere)
    by_anchor = {h.anchor: h.score for h in hits}
    assert by_anchor["counting-tokens-in-a-sentence"] > by_anchor["try-it"]


def test_stemming_matches_other_forms(searcher) -> None:
    response = searcher.search("calculation")
    assert places(response) == [("sampling", "why-temp")]
    assert "<mark>calculated</mark>" in response.results[0].snippet


IZE_LESSONS = {
    "01-statistics.md": "## The normal distribution\n\nA normal distribution is the bell curve "
                        "that heights and measurement errors follow.\n",
    "02-layers.md": "## Batch normalization\n\nBatch normalization rescales each layer's "
                    "activations over the batch, so training stays stable.\n",
    "03-text.md": "## What a token is\n\nA token is a piece of a word; the model reads tokens "
                  "one at a time.\n\n## The tokenizer\n\nThe tokenizer cuts text into pieces "
                  "before the model sees it, and every model ships its own.\n",
}


def course_of(tmp_path_factory: pytest.TempPathFactory, lessons: dict[str, str]):
    """A searcher over a course of ``lessons`` (file name → text), without a glossary."""
    root = tmp_path_factory.mktemp("course")
    (root / "lessons").mkdir()
    for name, text in lessons.items():
        (root / "lessons" / name).write_text(text, encoding="utf-8")
    build_index(root / "lessons", None, root / "index")
    opened = Searcher.open(root / "index")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def ize_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A course where -ize words sit beside the words they are made from."""
    yield from course_of(tmp_path_factory, IZE_LESSONS)


def test_a_word_made_with_ize_finds_only_its_family(ize_searcher) -> None:
    assert places(ize_searcher.search("tokenizer")) == [("text", "the-tokenizer")]
    assert places(ize_searcher.search("normalization")) == [("layers", "batch-normalization")]


def test_a_word_finds_what_is_made_from_it_after_itself(ize_searcher) -> None:
    """Batch normalization is no normal distribution, and a section on tokenizers is only
    partly about tokens: such a word counts a quarter of the word it was made from."""
    assert places(ize_searcher.search("normal")) == [
        ("statistics", "the-normal-distribution"), ("layers", "batch-normalization")]
    response = ize_searcher.search("token")
    assert places(response) == [("text", "what-a-token-is"), ("text", "the-tokenizer")]
    assert "<mark>tokenizer</mark>" in response.results[1].snippet
    assert places(ize_searcher.search('"batch normal"')) == []  # no phrase through it


def test_a_question_with_a_quoted_word_is_still_a_question(ize_searcher,
                                                            sample_searcher) -> None:
    """Quoted, a word is only the word as written, also among a question's other words; the
    question and stop words around it still do not count."""
    assert places(ize_searcher.search('what is a "token"?')) == [("text", "what-a-token-is")]
    assert sorted(places(ize_searcher.search('how do "token" and "normal" differ'))) == [
        ("statistics", "the-normal-distribution"), ("text", "what-a-token-is")]
    quoted, plain = (sample_searcher.search('what is "temperature"?'),
                     sample_searcher.search("what is temperature?"))
    assert not quoted.relaxed and quoted.total == plain.total > 0
    assert places(quoted) == places(plain)


ION_LESSONS = {
    "01-loops.md": "## Running a step again\n\nA loop repeats its body: each pass repeats the "
                   "same lines until the test fails.\n",
    "02-decoding.md": "## Going in circles\n\nGreedy decoding falls into repetition, the same "
                      "sentence again and again.\n",
    "03-words.md": "## Saying what a word means\n\nTo define a word is to say what it means "
                   "in a few others.\n\n## A dictionary's entries\n\nEach entry gives a "
                   "definition and an example.\n",
    "04-tags.md": "## Where a token stands\n\nEvery token has a position in the text.\n\n"
                  "## Tagging words\n\nA POS tagger gives each word its part of speech.\n",
}


@pytest.fixture(scope="module")
def ion_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A course that writes nouns made with -ion in some sections and their verbs in others."""
    yield from course_of(tmp_path_factory, ION_LESSONS)


@pytest.mark.parametrize(("query", "found"), [
    ("repeat", [("loops", "running-a-step-again"), ("decoding", "going-in-circles")]),
    ("repetition", [("decoding", "going-in-circles"), ("loops", "running-a-step-again")]),
    ("define", [("words", "saying-what-a-word-means"), ("words", "a-dictionarys-entries")]),
    ("definitions", [("words", "a-dictionarys-entries"), ("words", "saying-what-a-word-means")]),
    ("pos", [("tags", "tagging-words")]),  # "position" is no "pos"
])
def test_a_noun_made_with_ion_and_its_verb_find_each_other_after_themselves(
        ion_searcher, query: str, found: list) -> None:
    """Snowball stems "repetition" "repetit" and "repeat" "repeat": a search for either did
    not find the section that writes the other. Each now does, below those that write it."""
    assert places(ion_searcher.search(query)) == found


def test_a_noun_made_with_ion_and_its_verb_mark_each_other(ion_searcher) -> None:
    assert "<mark>repetition</mark>" in ion_searcher.search("repeat").results[1].snippet
    assert "<mark>repeats</mark>" in ion_searcher.search("repetition").results[1].snippet
    quoted = ion_searcher.search('"repetition" OR loop').results[0]  # only as written
    assert quoted.lesson == "loops" and "<mark>repeats</mark>" not in quoted.snippet


def test_a_quoted_or_excluded_ion_noun_is_only_itself(ion_searcher) -> None:
    assert places(ion_searcher.search('"repetition"')) == [("decoding", "going-in-circles")]
    assert places(ion_searcher.search('"repeat"')) == [("loops", "running-a-step-again")]
    assert places(ion_searcher.search("repeat -repetition")) == [
        ("loops", "running-a-step-again")]
    assert places(ion_searcher.search("repetition -repeat")) == [
        ("decoding", "going-in-circles")]
    assert places(ion_searcher.search('"repetition" OR -loop')) == [
        ("decoding", "going-in-circles"), ("words", "saying-what-a-word-means"),
        ("words", "a-dictionarys-entries"), ("tags", "where-a-token-stands"),
        ("tags", "tagging-words")]


EXERCISE_LESSONS = {
    f"0{n}-{topic}.md": (f"## Exercise\n\nPrint the {topic} of each row.\n\n"
                         f"## Solution\n\n```python\nprint(rows.{topic}())\n```\n")
    for n, topic in enumerate(["mean", "max", "min", "sum"], 1)
} | {
    "05-testing.md": "## Writing the test first\n\nWrite the test before the function it "
                     "checks: the test says what the function must do, and the function is "
                     "done when the test passes. Writing the test first makes you decide "
                     "what the function takes and gives before you solve the problem, and "
                     "it leaves a check behind that runs again after every change.\n",
}


@pytest.fixture(scope="module")
def exercise_searcher(tmp_path_factory: pytest.TempPathFactory):
    """Exercises, each answered in a short section headed "Solution", and one longer section
    that writes "solve" once."""
    yield from course_of(tmp_path_factory, EXERCISE_LESSONS)


def test_a_short_section_headed_by_a_verbs_noun_comes_after_the_one_that_writes_it(
        exercise_searcher) -> None:
    """A word's family counts a fraction of its score, not of its weight: counted in the
    index as a quarter of "solve", each short "Solution" section, its heading written
    three times, came before the one section that writes "solve"."""
    found = places(exercise_searcher.search("solve"))
    assert found[0] == ("testing", "writing-the-test-first")
    assert len(found) == 5  # the solutions, after it
    assert places(exercise_searcher.search("solution"))[-1] == found[0]


@pytest.mark.parametrize("query", [
    "why does repetition happen?", 'how does "greedy decoding" cause repetition'])
def test_a_question_finds_the_verb_of_its_ion_noun(ion_searcher, query: str) -> None:
    """Among a question's words, and where Whoosh's matchers score it (a phrase beside it)."""
    response = ion_searcher.search(query)
    assert places(response) == [("decoding", "going-in-circles"), ("loops", "running-a-step-again")]
    assert "<mark>repeats</mark>" in response.results[1].snippet


SOLUTION = ("## Solution\n\n```python\nimport sys\nimport numpy\n\n"
            "print(numpy.{}(numpy.loadtxt(sys.argv[1])))\n```\n")
CODE_LESSONS = {
    "01-libraries.md": (
        "## Loading a library\n\nMany of Python's tools live in libraries, which a program "
        "has to import before it can call them. To import a library is to load it under its "
        "name; importing too many slows a program down, so we import only what the analysis "
        "needs:\n\n```python\nimport numpy\n```\n"),
    **{f"0{n}-{name}.md": f"## Exercise {n}\n\nPrint the {name} of the readings in the "
       f"file named on the command line.\n\n" + SOLUTION.format(name)
       for n, name in ((2, "mean"), (3, "median"), (4, "max"), (5, "min"))},
}


@pytest.fixture(scope="module")
def code_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A course that teaches importing once, and four exercises whose solutions import."""
    yield from course_of(tmp_path_factory, CODE_LESSONS)


def test_the_prose_on_a_word_outranks_code_that_only_writes_it(code_searcher) -> None:
    """Four short solutions whose code begins ``import sys`` and ``import numpy`` came
    before the section that teaches importing, for "import": code writes the same few names
    again and again, and a word of it counts ``CODE_WEIGHT`` of a word of prose."""
    hits = code_searcher.search("import").results
    assert [(h.lesson, h.heading) for h in hits][:1] == [("libraries", "Loading a library")]
    assert len(hits) == 5  # the solutions are still found
    assert places(code_searcher.search("loadtxt"))[0] == ("mean", "solution")


@pytest.fixture(scope="module")
def apart_searcher(tmp_path_factory: pytest.TempPathFactory):
    """Sections on technical words, and sections whose everyday words Snowball stems alike."""
    yield from course_of(tmp_path_factory, {
        "01-modules.md": "## Importing a module\n\nTo import a module is to load its code.\n",
        "02-advice.md": "## A word of advice\n\nIt is important to rest; this is probably "
                        "the most important thing, from experience.\n",
        "03-chance.md": "## Chance\n\nA probability says how likely an outcome is.\n",
        "04-trials.md": "## Trials\n\nAn experiment tests one idea at a time.\n"})


@pytest.mark.parametrize(("query", "found"), [
    ("import", [("modules", "importing-a-module")]),
    ("probability", [("chance", "chance")]),
    ("experiment", [("trials", "trials")]),
    ("important", [("advice", "a-word-of-advice")]),
    ("probably", [("advice", "a-word-of-advice")]),
])
def test_everyday_words_snowball_stems_alike_are_kept_apart(apart_searcher, query, found):
    """"important" was found by ``import`` (Snowball's stem of both), "probably" by
    probability, "experience" by experiment; each word still finds itself."""
    assert places(apart_searcher.search(query)) == found


@pytest.fixture(scope="module")
def memo_searcher(tmp_path_factory: pytest.TempPathFactory):
    yield from course_of(tmp_path_factory, {
        "01-caching.md": "## Remembering results\n\nMemoisation keeps each call's result."})


@pytest.mark.parametrize("query", ["memoization", "memoized"])
def test_a_british_spelling_after_a_vowel_is_searched_as_the_american(memo_searcher, query):
    """The glossary took memoisation for memoization, but the search stemmed the two apart:
    ``memoization`` did not find a lesson that writes "memoisation"."""
    assert places(memo_searcher.search(query)) == [("caching", "remembering-results")]


@pytest.fixture(scope="module")
def marking_searcher(tmp_path_factory: pytest.TempPathFactory):
    yield from course_of(tmp_path_factory, {
        "01-tokens.md": "## Tokens\n\nThe tokenizer produces each token in turn.\n"})


def test_a_quoted_word_marks_only_itself(marking_searcher) -> None:
    plain = marking_searcher.search("token").results[0].snippet
    quoted = marking_searcher.search('"token"').results[0].snippet
    assert "<mark>tokenizer</mark>" in plain and "<mark>token</mark>" in plain
    assert "<mark>tokenizer</mark>" not in quoted and "<mark>token</mark>" in quoted


def test_a_quoted_or_excluded_word_is_only_the_word_as_written(ize_searcher) -> None:
    """In quotes, or after NOT, "token" means the word itself, not a word made from it."""
    assert places(ize_searcher.search('"token"')) == [("text", "what-a-token-is")]
    assert places(ize_searcher.search("tokenizer -token")) == [("text", "the-tokenizer")]
    assert places(ize_searcher.search("normalization NOT normal")) == [
        ("layers", "batch-normalization")]


@pytest.mark.parametrize(("query", "whoosh", "found"), [
    ('how does "token" relate to "batch normalization"', False,
     [("layers", "batch-normalization"), ("text", "what-a-token-is")]),
    ('"token" OR -model', True, [("text", "what-a-token-is"),
                                 ("statistics", "the-normal-distribution"),
                                 ("layers", "batch-normalization")]),
    ("normal OR -token", True, [("statistics", "the-normal-distribution"),
                                ("layers", "batch-normalization"), ("text", "the-tokenizer")]),
])
def test_a_quoted_or_excluded_word_is_the_word_as_written_where_whoosh_scores(
        ize_searcher, query: str, whoosh: bool, found: list) -> None:
    """An OR beside a NOT is scored by Whoosh's matchers, not from whole posting blocks, and
    so was a phrase among a question's words (now read from the blocks, as Whoosh scores it:
    ``test_match_count``). There too "token" in quotes is not the section on tokenizers, and
    "-token" does not exclude it."""
    response = ize_searcher.search(query)
    assert can_score(plan(parse_query(query), relaxed=response.relaxed).query,
                     CONTENT) is not whoosh
    assert places(response) == found
    assert response.total == len(found)


BASE_LESSONS = {
    "01-notes.md": "## A summary\n\nA summary is shorter than what it sums up.\n\n"
                   "## Shorter notes\n\nTo summarize a chapter, write its main points in "
                   "three sentences.\n\n## Sorting notes\n\nCategorising notes by topic "
                   "makes them easier to find again.\n",
    "02-results.md": "## Reading the results\n\nAnalyse the results before you publish "
                     "them.\n\n## Checking the code\n\nA static analyzer reads the code "
                     "without running it.\n",
}


@pytest.fixture(scope="module")
def base_searcher(tmp_path_factory: pytest.TempPathFactory):
    """-ize words made from words in -y, and a British and an American -yse/-yze."""
    yield from course_of(tmp_path_factory, BASE_LESSONS)


def test_a_word_in_y_finds_what_is_made_from_it(base_searcher) -> None:
    """"Summarize" counts for "summary" (Snowball cuts it to "summar", and "summary" to
    "summari"), after the section that writes "summary" itself."""
    response = base_searcher.search("summary")
    assert places(response) == [("notes", "a-summary"), ("notes", "shorter-notes")]
    assert "<mark>summarize</mark>" in response.results[1].snippet
    assert places(base_searcher.search("categories")) == [("notes", "sorting-notes")]
    assert places(base_searcher.search("summarized")) == [("notes", "shorter-notes")]


@pytest.mark.parametrize(("query", "place"), [
    ("analyze", ("results", "reading-the-results")),
    ("analysed", ("results", "reading-the-results")),
    ("analyser", ("results", "checking-the-code")),
    ("analyzers", ("results", "checking-the-code")),
])
def test_a_british_yse_and_an_american_yze_find_each_other(base_searcher, query: str,
                                                            place) -> None:
    response = base_searcher.search(query)
    assert place in places(response)
    assert response.suggestion is None


SPELLING_LESSONS = {
    "01-layers.md": "## Batch normalization\n\nBatch normalization rescales each layer's "
                    "activations over the batch, so training stays stable.\n",
    "02-text.md": "## The tokeniser\n\nThe tokeniser cuts text into pieces before the model "
                  "sees it, and every model ships its own.\n",
}


@pytest.fixture(scope="module")
def spelling_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A course written partly in American spelling, partly in British."""
    yield from course_of(tmp_path_factory, SPELLING_LESSONS)


@pytest.mark.parametrize("query", ["tokenizers", "tokenization", "tokenize", "tokenise",
                                   "tokenisers", "tokenizer's"])
def test_an_american_or_british_form_finds_the_other(spelling_searcher, query: str) -> None:
    response = spelling_searcher.search(query)
    assert places(response) == [("text", "the-tokeniser")]
    assert response.suggestion is None
    assert "<mark>tokeniser</mark>" in response.results[0].snippet


def test_a_british_spelling_brings_the_american_terms_card(sample_searcher) -> None:
    assert [t.term for t in sample_searcher.search("tokenisation").terms] == ["tokenizer"]
    assert sample_searcher.glossary.find("tokenisers").term == "tokenizer"


def test_a_british_spelling_finds_the_american_phrase(spelling_searcher) -> None:
    for query in ('"batch normalisation"', "normalised", "normalizing"):
        assert places(spelling_searcher.search(query)) == [("layers", "batch-normalization")]


@pytest.mark.parametrize(
    ("query", "place"),
    [
        ("mean", ("tokens", "what-is-a-token")),  # numpy.mean in a code block
        ("numpy", ("tokens", "what-is-a-token")),
        ("numpy.mean", ("tokens", "what-is-a-token")),
        ("data", ("tokens", "try-it-1")),  # data_file
        ("file", ("tokens", "try-it-1")),
        ("data_file", ("tokens", "try-it-1")),
        ("past_key_values", ("kv-cache", "keys-and-values-are-kept")),
    ],
)
def test_identifiers_split_into_words(searcher, query: str, place) -> None:
    assert place in places(searcher.search(query))


def test_a_natural_question_finds_its_section(searcher) -> None:
    """Question words are scaffolding: "what is a token?" searches for "token"."""
    response = searcher.search("what is a token?")
    assert [hit.lesson for hit in response.results[:3]] == ["tokens"] * 3
    assert "what-is-a-token" in [hit.anchor for hit in response.results[:3]]
    assert list(response.words) == ["token"]


def test_glossary_terms_named_by_the_query(searcher) -> None:
    response = searcher.search("kv cache")
    assert [t.term for t in response.terms] == ["KV cache"]
    assert response.results[0].lesson == "kv-cache"


def test_an_alias_finds_sections_using_another_name(searcher) -> None:
    """The notes say "key-value cache"; the glossary says that is the KV cache."""
    assert ("notes", None) in places(searcher.search("KV cache"))
    assert ("kv-cache", "keys-and-values-are-kept") in places(searcher.search("key-value cache"))


def test_an_alias_finds_what_the_name_finds_on_the_sample_course(sample_searcher) -> None:
    """Every section of the lesson "The KV cache" has the name in its indexed title, yet
    only three mention it in their own text: "key-value cache" found 4 sections where
    "kv cache" found 7. The names a lesson's title and headings give are indexed too."""
    by_name, by_alias = (sample_searcher.search(q, MAX_LIMIT)
                         for q in ("kv cache", "key-value cache"))
    assert by_alias.total == by_name.total == 7
    assert set(places(by_alias)) == set(places(by_name))
    assert {lesson for lesson, _ in places(by_alias)} == {
        "kv-cache", "next-token-prediction", "transformer-block"}



def test_an_alias_marks_the_name_each_section_writes(sample_searcher) -> None:
    """"temp" is an alias of temperature: the sections it finds write "temperature", and
    their snippets mark it (they marked nothing, and showed a part without it). A word of
    a name of several words is not marked alone: "sampling" of "sampling temperature", or
    "set" of "test set", an alias of benchmark, which marked "settings"; the name is marked
    where it is written whole ("test sets")."""
    response = sample_searcher.search("temp", MAX_LIMIT)
    assert response.total == 10  # the temperature lesson's summary among them
    for hit in response.results:
        marked = {m.lower() for m in re.findall(r"<mark>(.*?)</mark>", hit.snippet)}
        assert marked == {"temperature"}, (hit.heading, hit.snippet)
    snippets = [hit.snippet for hit in sample_searcher.search("eval", MAX_LIMIT).results]
    marked = {m.lower() for snippet in snippets
              for m in re.findall(r"<mark>(.*?)</mark>", snippet)}
    assert marked == {"benchmark", "benchmarks", "test", "sets"}
    alone = [s for s in snippets if re.search(r"(?<!<mark>test</mark> )<mark>sets", s)]
    assert "<mark>test</mark> <mark>sets</mark>" in " ".join(snippets) and not alone



@pytest.mark.parametrize(("query", "terms"), [
    ("what is the kv cache?", ["KV cache"]),
    ("the kv cache", ["KV cache"]),
    ("how do rlhf and dpo differ?", ["reinforcement learning from human feedback",
                                     "direct preference optimization"]),
])
def test_a_question_typed_in_lower_case_names_a_term_in_capitals(sample_searcher, query,
                                                                  terms) -> None:
    """"kv cache" alone showed the card of KV cache, but not within a question."""
    assert [t.term for t in sample_searcher.search(query).terms] == terms

def test_an_alias_of_several_words_finds_the_sections_of_its_term(sample_searcher) -> None:
    """"self-attention" is an alias of attention, which the sample course's sections write
    but never "self-attention": the phrase is found among the names of the terms each
    section mentions, so those names keep every word in place."""
    response = sample_searcher.search("self-attention", MAX_LIMIT)
    assert response.total == sample_searcher.search("self attention", MAX_LIMIT).total == 15
    assert [t.term for t in response.terms] == ["attention"]

@pytest.mark.parametrize(("query", "heading"), [
    ("greedy", "Greedy decoding"),
    ("nucleus sampling", "Top-k and top-p"),
])
def test_the_section_on_a_thing_outranks_one_that_names_it_in_passing(sample_searcher, query,
                                                                      heading) -> None:
    """A two-line exercise ("Try it") that writes "greedy decoding" and top_p once ranked
    above the sections on them: the three names of greedy decoding each wrote "greedy"
    into the exercise's indexed text again, and the names of nucleus sampling, which it
    never writes, counted as much as written words. Now a word of the names is written once
    and counts half, and a heading three times."""
    assert sample_searcher.search(query).results[0].heading == heading


def test_a_hyphenated_word_finds_the_one_word_the_course_writes(sample_searcher) -> None:
    """The sample course writes "pretraining", and "pre-training" only as the glossary's
    other name of it: the hyphenated query found only the sections that mention the term
    (8, where the other found 11), and marked nothing in the sections that write the word
    whole. It is searched as the one word too, and the reader is told so. (9, not 11: two
    sections that mention base models were found through its alias "pretrained model", a
    name of two words that a search finds only whole.)"""
    hyphenated, whole = (sample_searcher.search(q, MAX_LIMIT)
                         for q in ("pre-training", "pretraining"))
    assert hyphenated.total == whole.total == 9
    assert set(places(hyphenated)) == set(places(whole))
    assert (hyphenated.suggestion, hyphenated.suggestion_searched) == ("pretraining", True)
    assert any("<mark>pretraining</mark>" in hit.snippet.lower() for hit in hyphenated.results)
    softmax = sample_searcher.search("soft-max")  # the card of the word it also searches
    assert [t.term for t in softmax.terms] == ["softmax"]
    assert places(softmax) == places(sample_searcher.search("softmax"))


def test_two_words_the_course_writes_as_one_are_searched_so(sample_searcher) -> None:
    """"soft max" found no section with both words and fell back to sections with either
    (max_new_tokens and the like): the course writes softmax."""
    response = sample_searcher.search("soft max", MAX_LIMIT)
    assert response.suggestion == "softmax"
    assert not response.relaxed
    assert places(response) == places(sample_searcher.search("softmax", MAX_LIMIT))
    assert "<mark>softmax</mark>" in response.results[0].snippet.lower()
    both = sample_searcher.search("Soft Max temperature")
    assert both.suggestion == "Softmax temperature"
    pre = sample_searcher.search("pre training")  # no section writes them side by side
    assert (pre.suggestion, pre.suggestion_searched) == ("pretraining", True)
    question = sample_searcher.search("what is soft max?")  # each word found, never together
    assert question.suggestion == "what is softmax?"
    top = question.results[:2]  # the section defining softmax, as for the term alone, and
    assert {hit.lesson for hit in top} == {"logits-and-softmax"}  # the lesson's summary
    assert top[0].heading == "Scores before probabilities"
    assert (sample_searcher.search("how does pre training work?").suggestion
            == "how does pretraining work?")  # the glossary's "pre-training" is a name

# --- Phrases and operators ---------------------------------------------------------------------


def test_a_phrase_must_not_match_across_a_dropped_stop_word(searcher) -> None:
    assert searcher.search('"scores probabilities"').total == 0


@pytest.mark.parametrize(
    "query", ['"scores are not probabilities"', "“Scores are not probabilities”"]
)
def test_an_exact_phrase_matches(searcher, query: str) -> None:
    assert places(searcher.search(query)) == [("sampling", "scores-are-not-probabilities")]


def test_a_phrase_must_keep_word_order(searcher) -> None:
    assert searcher.search('"probabilities not are scores"').total == 0


GAP_GLOSSARY = """context window {#context-window}
: How many tokens a model reads at once.

sliding window {#sliding-window}
: A window of text moved along a longer one.

embedding {#embedding}
: The numbers that stand for a token.

attention {#attention}
: How each token weighs the ones before it.
  Also: self-attention
"""

GAP_LESSONS = {
    "01-model.md": "# What a model does\n\n## Where the course goes next\n\n"
                   "Chapters on tokens come first.\n\n### Further on\n\nLater, numbers.\n\n"
                   "## Why not just use words\n\n"
                   "Tokens are smaller than whole words.\n",
    "02-prediction.md": "# Next-token prediction\n\n## One guess at a time\n\n"
                        "The model guesses the next token, then the one after it.\n",
    "03-embeddings.md": "# Points in embedding space\n\n## Tables\n\nThe numbers live "
                        "in a table.\n\n## Lookups\n\nThey live in a table.\n\n"
                        "Embedding tables are looked up, never computed.\n",
    "04-window.md": "# Reading limits\n\n## Room for text\n\nThe context window "
                    "holds the prompt; a sliding window moves over what is longer, and "
                    "attention reads it all.\n",
}


@pytest.fixture(scope="module")
def gap_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A course whose headings, titles, paragraphs and glossary names end in a word the
    next one's first word would make a phrase with."""
    root = tmp_path_factory.mktemp("gaps")
    (root / "lessons").mkdir()
    (root / "glossary").mkdir()
    (root / "glossary" / "glossary.md").write_text(GAP_GLOSSARY, encoding="utf-8")
    for name, text in GAP_LESSONS.items():
        (root / "lessons" / name).write_text(text, encoding="utf-8")
    build_index(root / "lessons", root / "glossary", root / "index")
    opened = Searcher.open(root / "index")
    yield opened
    opened.close()


@pytest.mark.parametrize("query", [
    '"next chapters"',  # a heading's last word, the text's first
    '"next further"',  # one heading's last word, the next heading's first
    '"next where"',  # the heading written again after its path: its last word, its first
    '"words tokens"',
    '"space embedding"',  # a lesson's title, then the names of the terms only it names
    '"table embedding"',  # one paragraph's last word, the next one's first
    '"window context window" OR "window sliding window"',  # two terms' names, either order
])
def test_a_phrase_does_not_match_words_that_are_not_side_by_side(gap_searcher, query) -> None:
    """A section's indexed text joins its headings, the names of the terms it mentions, its
    paragraphs, its code and its lesson's title: the words on either side of a join are
    not side by side anywhere a reader sees them, and the search tips promise a phrase
    only words side by side. ``"next token"`` found a section whose heading ends in "next"
    and whose text opens with "Tokens" above the lesson on next-token prediction."""
    assert places(gap_searcher.search(query)) == []


def test_the_sample_courses_phrases_match_only_words_side_by_side(sample_searcher) -> None:
    """A tester's report: ``"next token"`` put "Where the course goes next" (a heading ending
    in "next", a text with "tokens") first, and three phrases found sections that write
    their words only across a heading's edge or between two terms' names."""
    hits = sample_searcher.search('"next token"').results[:2]
    assert {(hit.lesson, hit.heading) for hit in hits} == {
        ("next-token-prediction", "One guess at a time"),
        ("next-token-prediction", "The generation loop")}
    for query in ('"words token"', '"space embedding"', '"window context window"'):
        assert places(sample_searcher.search(query)) == [], query


def test_a_phrase_within_a_heading_a_text_or_a_name_still_matches(gap_searcher) -> None:
    hits = gap_searcher.search('"next token"').results
    assert [(h.lesson, h.anchor) for h in hits] == [("prediction", "one-guess-at-a-time")]
    assert "the <mark>next</mark> <mark>token</mark>" in hits[0].snippet
    assert places(gap_searcher.search('"course goes next"')) \
        == [("model", "where-the-course-goes-next"), ("model", "further-on")]  # its path
    assert places(gap_searcher.search('"embedding tables"')) == [("embeddings", "lookups")]
    window = places(gap_searcher.search('"sliding window"'))
    assert window == [("window", "room-for-text")]
    assert places(gap_searcher.search('"points in embedding space"'))  # the title, in every section
    # A name of several words no section writes: found among the names of the terms
    assert places(gap_searcher.search('"self attention"')) == window


def test_and(searcher) -> None:
    assert places(searcher.search("cache AND memory")) == [("kv-cache", "memory-grows")]
    assert places(searcher.search("cache memory")) == [("kv-cache", "memory-grows")]


def test_or(searcher) -> None:
    response = searcher.search("logit OR prefixes")
    found = places(response)
    assert ("sampling", "scores-are-not-probabilities") in found
    assert any(lesson == "notes" for lesson, _ in found)
    assert not response.relaxed  # OR is asked for, not a fallback
    assert searcher.search("logit prefixes").relaxed  # no section has both


@pytest.mark.parametrize("query", ["cache NOT memory", "cache -memory", 'cache -"memory"',
                                   "cache -(memory OR nothingatall)"])
def test_not(searcher, query: str) -> None:
    with_memory = places(searcher.search("cache"))
    without = places(searcher.search(query))
    assert ("kv-cache", "memory-grows") in with_memory
    assert ("kv-cache", "memory-grows") not in without
    assert set(without) < set(with_memory)


def test_lower_case_operators_are_words(searcher) -> None:
    assert searcher.search("cache or memory").total == searcher.search("cache memory").total


@pytest.mark.parametrize("query", [
    '"unclosed phrase', "(cache memory", "cache AND", "OR", ")( cache"])
def test_malformed_queries_degrade_to_words(searcher, query: str) -> None:
    searcher.search(query)  # no exception, whatever it finds


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.one_of(
    st.text(st.sampled_from(list('ab token cache "()-+ORANDNOT“”_.:*?’é\t')), max_size=50),
    st.text(max_size=30),
))
def test_any_query_either_searches_or_is_refused(searcher, query: str) -> None:
    """Whatever a reader types, the answer is results (maybe none) or BadQuery, never a crash."""
    try:
        response = searcher.search(query, limit=3)
    except BadQuery:
        assert (not query.split() or len(" ".join(query.split())) > MAX_QUERY_CHARS
                or only_excludes(query) or not names_words(query))
        return
    assert response.total >= len(response.results)
    assert len(response.results) <= 3


# --- Relaxed matching and spelling ------------------------------------------------------------


def test_fallback_to_most_words_sets_relaxed(searcher) -> None:
    strict = searcher.search("logit temperature")
    assert strict.total > 0 and not strict.relaxed
    loose = searcher.search("logit temperature zebra")
    assert loose.relaxed
    assert loose.total > 0
    assert {hit.lesson for hit in loose.results} == {"sampling"}


def test_a_typo_is_corrected(searcher) -> None:
    response = searcher.search("temprature")
    assert response.total > 0
    assert response.suggestion == "temperature"
    assert response.results[0].lesson == "sampling"


def test_a_typo_keeps_the_rest_of_the_query(searcher) -> None:
    response = searcher.search("Temprature sampling")
    assert response.suggestion == "Temperature sampling"


def test_known_words_are_not_corrected(searcher) -> None:
    assert searcher.search("temperature").suggestion is None


def test_a_short_word_is_corrected_only_to_a_word_the_course_leans_on(searcher) -> None:
    """Under five letters, one slip reaches many words: "tokn" is token, which the course
    writes often and nothing else one slip away rivals (it found nothing)."""
    assert searcher.search("tokn").suggestion == "token"


# --- What a hit carries ---------------------------------------------------------------------


def test_snippets_escape_html_and_mark_matches(markdown_searcher) -> None:
    snippet = markdown_searcher.search("document").results[0].snippet
    assert "&lt;<mark>document</mark>&gt;" in snippet
    assert "&amp;" in snippet
    assert "<document>" not in snippet


@pytest.fixture(scope="module")
def identifier_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A section whose text says "file" in passing and whose code names ``data_file``."""
    yield from course_of(tmp_path_factory, {"01-functions.md": (
        "# Functions\n\n## Averages\n\nWe call this function twice, once with each file, "
        "and compare the two means. The data in each file is one patient per row.\n\n"
        "```python\ndef average(data_file):\n    return numpy.loadtxt(data_file).mean()\n```\n")})


@pytest.mark.parametrize("query", ["data_file", '"data file"', "average data_file"])
def test_a_snippet_shows_the_identifier_the_query_writes(identifier_searcher, query) -> None:
    """The snippet showed the prose's "once with each <mark>file</mark>", where the code
    writes data_file itself."""
    snippet = identifier_searcher.search(query).results[0].snippet
    assert "<mark>data</mark>_<mark>file</mark>" in snippet


def test_a_snippet_of_words_apart_still_prefers_the_text(identifier_searcher) -> None:
    snippet = identifier_searcher.search("data file").results[0].snippet
    assert "each <mark>file</mark>" in snippet and "_" not in snippet


@pytest.fixture(scope="module")
def command_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A section whose prose names a command and whose code block runs it twice."""
    yield from course_of(tmp_path_factory, {"01-fixes.md": (
        "# Fixes\n\n## Ask for a new address\n\nWhen a laptop shows an odd address, look at "
        "it first: on Windows, `ipconfig /all` lists the lease and the name servers. Then "
        "hand the lease back and ask for another one.\n\n"
        "```\nipconfig /all\nipconfig /release\nipconfig /renew\n```\n")})


def test_a_snippet_shows_the_code_that_holds_more_of_the_query(command_searcher) -> None:
    """"ipconfig renew" showed the prose's "ipconfig /all lists the lease", where the code
    writes ipconfig /renew."""
    snippet = command_searcher.search("ipconfig renew").results[0].snippet
    assert "<mark>ipconfig</mark> /<mark>renew</mark>" in snippet
    assert "name servers" not in snippet


def test_a_snippet_of_words_the_prose_holds_as_well_shows_the_prose(command_searcher) -> None:
    snippet = command_searcher.search("ipconfig lease").results[0].snippet
    assert "<mark>ipconfig</mark> /all lists the <mark>lease</mark>" in snippet
    assert command_searcher.search("ipconfig").results[0].snippet.startswith("When a laptop")


def test_snippet_without_a_body_match_is_escaped_too(markdown_searcher) -> None:
    hit = markdown_searcher.search("short").results[0]
    assert hit.anchor == "keep-the-role-short"
    assert "<mark>" not in hit.snippet
    assert "&lt;document&gt;" in hit.snippet


def test_a_lesson_without_headings_links_with_a_text_fragment(searcher) -> None:
    hit = searcher.search("repeated prefixes").results[0]
    assert (hit.lesson, hit.anchor, hit.heading) == ("notes", None, None)
    assert hit.url == NOTES_URL + "#" + text_fragment(
        "Reusing the key-value cache between requests makes"
    )
    assert hit.url.startswith(NOTES_URL + "#:~:text=Reusing%20the%20key%2Dvalue")


def test_the_check_question_is_a_hit_of_its_own(searcher) -> None:
    hit = searcher.search("raising the temperature").results[0]
    assert hit.kind == "check"
    assert hit.lesson == "sampling"
    assert hit.heading == "Check: What does raising the temperature do?"
    assert hit.url.startswith("https://courses.example.test/tiny/sampling#:~:text=What%20does")
    # Options and their "tempting" notes are searchable too.
    assert searcher.search("effort").results[0].kind == "check"


def test_hits_carry_lesson_module_and_path(searcher) -> None:
    hit = searcher.search("probabilities").results[0]
    assert hit.lesson_title == "Sampling and temperature"
    assert hit.heading == "Scores are not probabilities"
    assert hit.heading_path == ("Scores are not probabilities",)
    assert (hit.module, hit.module_title, hit.position) == ("basics", "Basics", 2)
    assert hit.url == "https://courses.example.test/tiny/sampling#scores-are-not-probabilities"


CACHING_LESSONS = {
    "caching.txt": "Caching answers\n\nWhy wait?\n\nA memo table keeps each answer once it is "
                   "worked out, so asking again costs nothing.\n\nStale entries\n\nAn entry "
                   "older than its limit is thrown away and worked out again.\n",
}


@pytest.fixture(scope="module")
def caching_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A plain-text lesson whose first heading is a question, right under its title."""
    yield from course_of(tmp_path_factory, CACHING_LESSONS)


def test_a_question_heading_under_a_text_title_links_to_its_anchor(caching_searcher) -> None:
    hit = caching_searcher.search("memo table").results[0]
    assert (hit.lesson, hit.heading, hit.anchor) == ("caching", "Why wait?", "why-wait")
    assert hit.url == "/lessons/caching#why-wait"


WIRING_URL = "https://courses.example.test/boards/wiring"
WIRING_LESSONS = {
    "01-wiring.md": f"---\nurl: {WIRING_URL}\n---\n# Wiring\n\n"
                    "## Pin names {.unnumbered #pins:gpio}\n\nEvery header pin has a "
                    "breadboard row.\n\n## Ground loops { #ground }\n\nA multimeter finds "
                    "stray currents.\n",
}


@pytest.fixture(scope="module")
def wiring_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A course whose headings give their ids in attribute blocks."""
    yield from course_of(tmp_path_factory, WIRING_LESSONS)


def test_a_hit_links_to_the_id_a_heading_gives(wiring_searcher) -> None:
    hit = wiring_searcher.search("breadboard").results[0]
    assert (hit.heading, hit.url) == ("Pin names", WIRING_URL + "#pins:gpio")
    hit = wiring_searcher.search("multimeter").results[0]
    assert (hit.heading, hit.url) == ("Ground loops", WIRING_URL + "#ground")


def test_two_headings_with_one_id_keep_it_and_their_own_terms(tmp_path: Path) -> None:
    """Both keep the id the page gives them, and each section is indexed with the terms its
    own text names: the second's were taken for the first's, which the glossary's other name
    for a term it names then did not find."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "glossary.md").write_text(
        "KV cache {#kv-cache}\n: Stored keys and values.\n  Also: key-value memory\n",
        encoding="utf-8")
    (tmp_path / "lessons" / "01-memory.md").write_text(
        f"---\nurl: {WIRING_URL}\n---\n# Memory\n\n## Reuse {{#same}}\n\nThe KV cache "
        "saves recomputing.\n\n## Attention {#same}\n\nEvery head reads every earlier "
        "token.\n", encoding="utf-8")
    build_index(tmp_path / "lessons", tmp_path / "glossary", tmp_path / "index")
    searcher = Searcher.open(tmp_path / "index")
    try:
        hits = searcher.search("key-value memory").results
        assert [(h.heading, h.url) for h in hits] == [("Reuse", WIRING_URL + "#same")]
        hit = searcher.search("head").results[0]
        assert (hit.heading, hit.url) == ("Attention", WIRING_URL + "#same")
    finally:
        searcher.close()


def test_a_hit_in_an_export_links_to_the_id_its_heading_block_gives(tmp_path_factory) -> None:
    export = {"lesson": {"slug": "recap", "title": "Recap", "url": WIRING_URL},
              "reader": {"schema": 1, "blocks": [
                  {"t": "h2", "id": "recap", "runs": [{"text": "Recap"}]},
                  {"t": "p", "runs": [{"text": "Soldering irons heat quickly."}]},
                  {"t": "h2", "id": "recap", "runs": [{"text": "Recap again"}]},
                  {"t": "p", "runs": [{"text": "Oscilloscopes show voltages."}]}]}}
    for searcher in course_of(tmp_path_factory, {"01-recap.json": json.dumps(export)}):
        hit = searcher.search("oscilloscopes").results[0]
        assert (hit.heading, hit.url) == ("Recap again", WIRING_URL + "#recap")


def test_a_heading_with_the_id_check_keeps_its_terms_beside_the_check_question(
        tmp_path: Path) -> None:
    """A section whose id is ``check`` and the lesson's check question had one document id,
    and the glossary's tables, keyed on it, gave the question the section's terms."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "glossary.md").write_text(
        "KV cache {#kv-cache}\n: Stored keys and values.\n  Also: key-value memory\n",
        encoding="utf-8")
    lesson = {
        "lesson": {"slug": "memory", "title": "Memory"},
        "reader": {"blocks": [
            {"t": "h2", "id": "check", "runs": [{"text": "Check the cache"}]},
            {"t": "p", "runs": [{"text": "The KV cache saves recomputing."}]},
        ]},
        "check": {"question": "Which heads read every earlier token?", "options": [
            {"text": "All of them", "correct": True}, {"text": "None", "correct": False}]},
    }
    (tmp_path / "lessons" / "01-memory.json").write_text(json.dumps(lesson), encoding="utf-8")
    build_index(tmp_path / "lessons", tmp_path / "glossary", tmp_path / "index")
    searcher = Searcher.open(tmp_path / "index")
    try:
        hits = searcher.search("key-value memory").results
        assert [(h.kind, h.heading) for h in hits] == [("section", "Check the cache")]
        assert [h.kind for h in searcher.search("earlier token").results] == ["check"]
    finally:
        searcher.close()


def test_callout_sections_are_hits(searcher) -> None:
    assert ("tokens", "try-it") in places(searcher.search("name"))


def test_list_items_written_as_runs_are_found(sample_searcher) -> None:
    """The sample course's softmax lesson writes each list item as a list of runs."""
    hits = sample_searcher.search("raise", lesson="logits-and-softmax").results
    assert [hit.anchor for hit in hits] == ["softmax-in-three-steps"]
    assert "<mark>Raise</mark> e to the power of each logit" in hits[0].snippet



def test_a_snippet_keeps_a_list_before_the_paragraph_after_it(sample_searcher) -> None:
    """In the sample course's first lesson, the loop's steps come before "That loop is all
    there is."; a snippet must read them in that order."""
    (hit,) = sample_searcher.search("score every token",
                                    lesson="what-is-a-language-model").results
    words = " ".join(hit.snippet.replace("<mark>", "").replace("</mark>", "").split())
    assert "over and over: read the tokens so far; score every token" in words
    assert "and repeat. That loop is all there is." in words

# --- Filters and paging ----------------------------------------------------------------------


def test_filter_by_lesson(searcher) -> None:
    response = searcher.search("token", lesson="kv-cache")
    assert response.total > 0
    assert {hit.lesson for hit in response.results} == {"kv-cache"}


@pytest.mark.parametrize(
    ("module", "lessons"), [("memory", {"kv-cache", "notes"}), ("basics", {"tokens", "sampling"})]
)
def test_filter_by_module(searcher, module: str, lessons: set[str]) -> None:
    response = searcher.search("model", module=module, limit=50)
    assert response.total > 0
    assert {hit.lesson for hit in response.results} <= lessons
    assert all(hit.module == module for hit in response.results)


def test_filters_that_match_nothing(searcher) -> None:
    assert searcher.search("token", lesson="no-such-lesson").total == 0
    assert searcher.search("token", lesson="tokens", module="memory").total == 0


def test_paging(searcher) -> None:
    everything = searcher.search("token", limit=50)
    assert everything.total >= 5
    first = searcher.search("token", limit=2, page=1)
    second = searcher.search("token", limit=2, page=2)
    assert (first.page, first.limit, len(first.results)) == (1, 2, 2)
    assert (second.page, second.limit, len(second.results)) == (2, 2, 2)
    assert first.total == second.total == everything.total
    assert places(first) + places(second) == places(everything)[:4]


def test_a_page_past_the_end(searcher) -> None:
    total = searcher.search("token").total
    response = searcher.search("token", limit=10, page=total + 1)
    assert response.results == ()


def test_limit_and_page_are_clamped(searcher) -> None:
    assert searcher.search("token", limit=10_000).limit == MAX_LIMIT
    assert searcher.search("token", limit=0).limit == 1
    assert searcher.search("token", page=-3).page == 1


# --- Refused queries ---------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", "\n\t", None])
def test_an_empty_query_is_refused(searcher, query) -> None:
    with pytest.raises(BadQuery, match="empty"):
        searcher.search(query)


@pytest.mark.parametrize("query", ["-model", "NOT model", '-"kv cache"', "-(cache OR memory)",
                                   '-"the"', "-model -", "-model .", "-cache OR -memory"])
def test_a_query_that_only_excludes_is_refused_saying_so(searcher, query) -> None:
    """Nothing to search for: it found nothing and said nothing, as if the course never
    spoke of what it had not been asked for."""
    with pytest.raises(BadQuery, match="only excludes words"):
        searcher.search(query)


@pytest.mark.parametrize("query", ["?", "()", ")(", '""', "-", "+", '-""', "- -", "-.",
                                   "- ( ) ?", "title:"])
def test_a_query_with_no_word_to_search_is_refused_saying_so(searcher, query) -> None:
    """Punctuation alone found nothing and said nothing, as if the course had no answer,
    where an empty query is refused: no course could answer it."""
    with pytest.raises(BadQuery, match=r"^The query has no word to search for \(.+\): type "
                                       r"one or more words"):
        searcher.search(query)


@pytest.mark.parametrize("query, words", [
    ("NOT", "not"), ("AND", "and"), ("OR", "or"), ("NOT NOT", "not"), ("(AND)", "and"),
    ("AND ?", "and"), ("NOT -", "not"), ("NOT AND", "not and"), ("AND OR NOT", "and or not"),
])
def test_operators_alone_are_searched_as_their_words(searcher, query, words) -> None:
    """``NOT`` alone searched the word not, but ``AND`` and ``OR`` searched nothing and
    ``NOT NOT`` was refused as only excluding: with nothing to join or exclude, an operator
    is the word it spells, as a lone ``NOT`` always was."""
    found = searcher.search(query, 50)
    assert places(found) == places(searcher.search(words, 50))
    assert found.total == searcher.search(words, 50).total


def test_an_operator_alone_is_a_word_the_course_may_not_write(searcher) -> None:
    """The tiny course writes "and" and "not" but never "or"."""
    assert searcher.search("AND").total > 0 and searcher.search("NOT").total > 0
    assert searcher.search("OR").total == 0 == searcher.search("or").total


@pytest.mark.parametrize("query", ["--cache", "NOT NOT cache", "-(-cache)"])
def test_a_double_negation_searches_the_word(searcher, query) -> None:
    """It found nothing and said nothing."""
    assert places(searcher.search(query, 50)) == places(searcher.search("cache", 50))


def test_a_too_long_query_is_refused(searcher) -> None:
    with pytest.raises(BadQuery, match=str(MAX_QUERY_CHARS)):
        searcher.search("token " * (MAX_QUERY_CHARS // 6 + 1))
    searcher.search("t" * MAX_QUERY_CHARS)  # exactly the limit is fine


TRACEBACK = """Traceback (most recent call last):
  File "/home/ana/rainfall/analyse.py", line 41, in <module>
    totals = monthly_totals(readings, station="north")
  File "/home/ana/rainfall/analyse.py", line 27, in monthly_totals
    frame = load_station(readings, station)
  File "/home/ana/rainfall/stations.py", line 88, in load_station
    rows = [parse_row(line) for line in handle if line.strip()]
  File "/home/ana/rainfall/stations.py", line 88, in <listcomp>
    rows = [parse_row(line) for line in handle if line.strip()]
  File "/home/ana/rainfall/stations.py", line 61, in parse_row
    when, amount = line.split(",")
  File "/home/ana/rainfall/stations.py", line 55, in check_row
    raise ValueError(f"row {number} of {path} has {count} fields, expected 2")
ValueError: row 17 of /home/ana/rainfall/data/north-2023.csv has 3 fields, expected 2.
Check the file for a stray comma in the notes column, or pass skip_bad_rows=True to read
past it; the rows skipped are then listed in the log with their line numbers."""


def test_a_pasted_traceback_is_searched_for_its_error(searcher) -> None:
    """A traceback of six frames is near 1,000 characters: it was refused (400, "the limit
    is 512") before any of it could be searched. Its error is searched, and the response
    still answers the text as pasted."""
    assert 900 < len(" ".join(TRACEBACK.split())) <= MAX_QUERY_CHARS
    found = searcher.search(TRACEBACK)
    assert found.left_out is not None and found.left_out.written > 64
    assert found.left_out.error.startswith(
        "ValueError: row 17 of /home/ana/rainfall/data/north-2023.csv has 3 fields")
    assert found.query == " ".join(TRACEBACK.split())


@pytest.mark.parametrize("query", ["NOT " * 1000 + "cache", "-" * 4000 + "cache",
                                   "NOT -" * 800 + "cache", "a" * 4000, "ab" * 2000])
def test_a_query_within_the_limit_is_answered_whatever_it_holds(searcher, query) -> None:
    """A thousand NOTs or minus signs were read one call deep each, past Python's stack."""
    assert len(query) <= MAX_QUERY_CHARS
    found = searcher.search(query)
    assert found.total >= 0


# --- The JSON body ---------------------------------------------------------------------------


def test_search_body_has_exactly_the_documented_keys(searcher) -> None:
    body = responses.search_body(searcher.search("token temperature OR cache"))
    assert set(body) == {
        "query", "total", "page", "limit", "relaxed", "results", "terms", "suggestion",
        "suggestion_searched", "related", "left_out",
    }
    assert body["results"]
    for result in body["results"]:
        assert set(result) == {
            "lesson", "lesson_title", "heading", "heading_path", "module", "anchor", "url",
            "snippet", "score", "kind", "matched_in_title",
        }
    assert body["terms"]
    for term in body["terms"]:
        assert set(term) == {"term", "definition", "url", "glossary_anchor"}
    assert json.loads(json.dumps(body)) == body


def test_search_body_values(searcher) -> None:
    body = responses.search_body(searcher.search("temprature", limit=3))
    assert body["query"] == "temprature"
    assert body["suggestion"] == "temperature"
    assert (body["page"], body["limit"], body["relaxed"]) == (1, 3, False)
    assert len(body["results"]) <= 3
    assert body["total"] >= len(body["results"])
    assert body["results"][0]["heading_path"] == ["Why does “temperature” matter?"]


@pytest.fixture(scope="module")
def editors_searcher(tmp_path_factory: pytest.TempPathFactory):
    yield from course_of(tmp_path_factory, {"01-editors.md": (
        "# Editors\n\n## Notepad++\n\nNotepad++ is an editor for "
        "pneumonoultramicroscopicsilicovolcanoconiosis notes.\n")})


def test_did_you_mean_keeps_the_symbols_that_end_a_name(editors_searcher) -> None:
    response = editors_searcher.search("Notpad++ editor")
    assert response.suggestion == "Notepad++ editor"
    assert places(response) == [("editors", "notepad")]


@pytest.mark.parametrize(("query", "suggestion"), [
    ("notpad++ editor", "notepad++ editor"),  # in lower case, the ++ is read as an increment
    ("notpad++", "notepad++"),
    ("notepadd++", "notepad++"),
    ("Notepad+", "Notepad++"),  # the name's symbols, not Notepad+++
    ("notepad+ editor", "notepad++ editor"),
])
def test_did_you_mean_gives_a_name_its_symbols_in_any_case(editors_searcher, query,
                                                          suggestion) -> None:
    """This course writes Notepad++ only where a heading or a sentence starts, which says
    nothing of its capital: a name the course writes mid-sentence is suggested as written
    (test_query_reading)."""
    response = editors_searcher.search(query)
    assert response.suggestion == suggestion
    assert places(response) == [("editors", "notepad")]


@pytest.fixture(scope="module")
def titled_searcher(tmp_path_factory: pytest.TempPathFactory):
    """Lessons whose titles alone write some words: a section is found by its lesson's
    title, so a misspelling of a title's word is corrected as a heading's is."""
    yield from course_of(tmp_path_factory, {
        "01-memo.md": "---\ntitle: Recursion and memoization\n---\n\n"
                      "## Functions that call themselves\n\nA function may call itself.\n",
        "02-sql.md": "---\ntitle: Querying data with SQL\n---\n\n"
                     "## Selecting rows\n\nA select statement picks rows from a table.\n",
    })


@pytest.mark.parametrize(("query", "suggestion", "lesson"), [
    ("recursoin", "recursion", "memo"),
    ("queyring", "querying", "sql"),
    ("slecting", "selecting", "sql"),  # a heading's word, as before
])
def test_a_misspelt_word_of_a_lesson_title_is_corrected(titled_searcher, query, suggestion,
                                                        lesson) -> None:
    response = titled_searcher.search(query)
    assert response.suggestion == suggestion
    assert {hit.lesson for hit in response.results} == {lesson}


def test_a_very_long_word_is_corrected_one_slip_away_only(editors_searcher) -> None:
    """Two slips are looked for up to MAX_TWO_EDITS letters: a long word's two-edit keys
    grow with the square of its length, and one request must not tie up a worker."""
    word = "pneumonoultramicroscopicsilicovolcanoconiosis"
    assert editors_searcher.correct(word.replace("micro", "mikro")) == word
    assert editors_searcher.correct(word.replace("micro", "mikra")) is None
    assert editors_searcher.correct("edtiro") is None  # short: two slips are too many


# --- Two slips in a word of seven letters or more -----------------------------------------


@pytest.mark.parametrize(("query", "suggestion"), [
    ("softmaks", "softmax"),  # a letter changed, one added
    ("sofmaxx", "softmax"),  # one dropped, one added
    ("atension", "attention"),
    ("contekst", "context"),
    ("sentanse", "sentence"),  # a vowel for a vowel, an s for a soft c: two letters changed
    ("lenguaje", "language"),
    ("how does softmaks work", "how does softmax work"),
])
def test_two_slips_in_a_word_of_seven_or_eight_letters_are_corrected(sample_searcher, query,
                                                                     suggestion) -> None:
    response = sample_searcher.search(query)
    assert response.suggestion == suggestion
    assert response.suggestion_searched
    assert response.total > 0


@pytest.mark.parametrize("word", [
    "complex",  # complete: an x for a t, keys apart, and an e dropped
    "portions",  # positions: an r for an s
    "realizes",  # replies
    "renaming",  # reading
    "directory",  # directly
    "regarding",  # reading: a g and an r added
    "convention",  # connection
    "portability",  # probability
    "conservation",  # conversation: v and s trade places far apart
])
def test_a_real_word_two_changes_no_slip_explains_from_the_courses_is_not_corrected(
        sample_searcher, word) -> None:
    """Each was searched as the course's word two edits away ("Showing results for
    complete"), though no slip a reader makes turns the one into the other."""
    response = sample_searcher.search(word)
    assert (response.suggestion, response.suggestion_searched) == (None, False)
    assert sample_searcher.correct(word) is None


def test_a_form_of_another_word_is_not_corrected_to_the_word_its_letters_begin(
        sample_searcher) -> None:
    """"specified" was searched as "specific", two edits away and both in its ending: it is
    specify's past, spelt right, as "straighter" is straight's."""
    response = sample_searcher.search("specified")
    assert (response.suggestion, response.suggestion_searched) == (None, False)
    assert sample_searcher.search("specific").total > 0


@pytest.mark.parametrize(("typed", "meant"), [("samplinged", "sampling"),
                                               ("embeddinged", "embedding")])
def test_a_word_typed_with_an_ending_too_many_is_still_corrected(
        sample_searcher, typed, meant) -> None:
    """A word of the course with "-ed" typed after it is that word and a slip, not a form of
    another word: it is corrected to the word, as it was before forms were spared."""
    response = sample_searcher.search(typed)
    assert response.suggestion.lower() == meant and response.suggestion_searched


def test_softmaks_finds_the_softmax_lesson(sample_searcher) -> None:
    response = sample_searcher.search("softmaks")
    assert response.results[0].lesson == "logits-and-softmax"


@pytest.fixture(scope="module")
def workshop_searcher(tmp_path_factory: pytest.TempPathFactory):
    """A course whose words lie two slips from real words it does not write."""
    yield from course_of(tmp_path_factory, {"01-wiring.md": (
        "# Wiring a workshop\n\n## Cables\n\n"
        "Each cable is connected to one socket. A cable connected to two sockets is "
        "corrected by the inspector, and a label is corrected where it was wrong. The "
        "passage behind the bench holds the cables: keep the passage clear, as a blocked "
        "passage is a hazard. The result of a careful check is a safe room, and that result "
        "is written down. The apprentice trained for a week and trained again in spring.\n")})


@pytest.mark.parametrize("word", [
    "collected",  # two slips from connected and from corrected, each written twice
    "package",  # two letters changed from passage
    "rebuilt",  # two slips from result, a shorter word
    "bllockd",  # two slips from blocked, written once
    "passage", "connected", "trained",  # the course's own words
])
def test_a_word_two_slips_from_no_one_clear_word_is_not_corrected(workshop_searcher,
                                                                  word) -> None:
    assert workshop_searcher.search(word).suggestion is None


def test_two_slips_from_a_word_the_course_writes_often_are_corrected(workshop_searcher) -> None:
    response = workshop_searcher.search("passeges")
    assert response.suggestion == "passage"
    assert response.total == 1


def test_the_words_of_a_hash_heading_under_a_front_matter_title_are_found(tmp_path: Path) -> None:
    """A Markdown lesson titled in its front matter, or an export titled in ``lesson``, whose
    ``#`` heading says something else: the page shows that heading, and its words found
    nothing at all."""
    export = {"lesson": {"slug": "moka", "title": "Stovetop coffee",
                         "url": "https://coffee.example.test/moka"},
              "body": {"format": "markdown",
                       "text": "# The gasket and the funnel\n\nSteam pushes water up.\n"}}
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-cold.md").write_text(
        "---\ntitle: Cold brew basics\nurl: https://coffee.example.test/cold\n---\n\n"
        "# Steeping slowly\n\nGrounds sit in cold water overnight.\n\n"
        "## Ratio\n\nOne part coffee to eight parts water.\n", encoding="utf-8")
    (tmp_path / "lessons" / "02-moka.json").write_text(json.dumps(export), encoding="utf-8")
    build_index(tmp_path / "lessons", None, tmp_path / "index")
    searcher = Searcher.open(tmp_path / "index")
    try:
        first = searcher.search("slowly").results[0]
        assert (first.url, first.heading) == ("https://coffee.example.test/cold#steeping-slowly",
                                              "Steeping slowly")
        assert [h.url for h in searcher.search("gasket funnel").results] == [
            "https://coffee.example.test/moka#the-gasket-and-the-funnel"]
    finally:
        searcher.close()


SENTENCES = """---
title: Crust
---

## Baking

Bake until you see a dark crust. Shape matters less than heat; timing matters more. Is it
done? Listen: a hollow knock says so. Print "Hello, world!" and call `numpy.mean` on it.

## Shaping

The crust shape depends on scoring.
"""


@pytest.mark.parametrize("query", ['"dark crust shape"', '"heat timing"', '"done listen"',
                                   '"listen a hollow"'])
def test_a_phrase_does_not_match_across_a_sentence_end(tmp_path, query) -> None:
    """A full stop, question or exclamation mark, semicolon or colon before a space ends a
    run of words a reader reads together: "a dark crust. Shape matters" is no phrase
    "dark crust shape"."""
    with open_course(tmp_path, {"crust.md": SENTENCES}) as searcher:
        assert places(searcher.search(query)) == []


def test_a_phrase_within_a_sentence_still_matches(tmp_path) -> None:
    with open_course(tmp_path, {"crust.md": SENTENCES}) as searcher:
        assert places(searcher.search('"crust shape"')) == [("crust", "shaping")]
        assert places(searcher.search('"hello world"')) == [("crust", "baking")]  # a comma
        assert places(searcher.search('"numpy mean"')) == [("crust", "baking")]
        # Each word anywhere, as before; written side by side first
        assert places(searcher.search("crust shape")) == [("crust", "shaping"),
                                                         ("crust", "baking")]
