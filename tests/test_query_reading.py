"""How a search reads what a reader types: other engines' syntax as punctuation, contractions
as the words they stand for, accents as no misspelling, two slips in a long word. On the
sample course ``make run`` serves, where readers met each of these."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_fixtures import Page, serving

from lessonsearch.build import build_index
from lessonsearch.errors import BadQuery
from lessonsearch.query import MAX_ATOMS, MAX_PHRASES, parse_query, positive_words
from lessonsearch.searcher import Searcher


@pytest.fixture(scope="module")
def searcher(sample_searcher):
    return sample_searcher


@pytest.fixture(scope="module")
def accented(tmp_path_factory: pytest.TempPathFactory):
    """A course that writes its words with accents: readers often type them without."""
    lessons = tmp_path_factory.mktemp("accented") / "lessons"
    lessons.mkdir()
    (lessons / "01-classifiers.md").write_text(
        "---\ntitle: Simple classifiers\nslug: classifiers\n---\n\n"
        "## The naïve baseline\n\n"
        "A naïve classifier counts words and ignores their order.\n\n"
        "## Reading a résumé\n\n"
        "Screening a résumé by keyword is the classic example.\n\n"
        "## Over coffee\n\n"
        "Think of a café where every order is written on a slip.\n\n"
        "## Ça va\n\n"
        "The French greeting ça va asks how someone is; où asks where.\n",
        encoding="utf-8",
    )
    out = lessons.parent / "index"
    build_index(lessons, None, out)
    opened = Searcher.open(out)
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
    softmax ones; the reader asked for softmax, the term alone: the section that defines it
    first (``DEFINING_BOOST``), then the softmax lesson's section that works it through (its
    summary, short, came second while the lesson's title counted most in its shortest
    documents)."""
    response = searcher.search(query, limit=50)
    assert places(response) == places(searcher.search("softmax", limit=50))
    assert [(hit.lesson, hit.anchor) for hit in response.results[:2]] == [
        ("logits-and-softmax", "scores-before-probabilities"),
        ("logits-and-softmax", "softmax-in-three-steps")]
    assert not response.relaxed


def test_the_section_teaching_a_running_total_comes_before_its_lesson_s_summary(
        searcher) -> None:
    """The transformer block's summary says "running total" twice in 40 words, and came
    first; the section that teaches it now does, the summary after it."""
    response = searcher.search("running total")
    assert [(hit.lesson, hit.anchor, hit.kind) for hit in response.results] == [
        ("transformer-block", "adding-instead-of-replacing", "section"),
        ("transformer-block", None, "summary")]


def test_a_field_prefix_on_an_excluded_word_excludes_the_word(searcher) -> None:
    assert places(searcher.search("logit -title:softmax", limit=50)) == places(
        searcher.search("logit -softmax", limit=50))


def test_a_name_joined_by_dots_or_hyphens_is_still_a_phrase(searcher) -> None:
    assert places(searcher.search("key-value")) == places(searcher.search('"key value"'))


@pytest.mark.parametrize("query", ["*", "?", "~", "^", ":", "[]", "{}", "title:", "* ? *"])
def test_syntax_alone_is_refused_as_no_word_to_search(searcher, query) -> None:
    with pytest.raises(BadQuery, match="has no word to search for"):
        searcher.search(query)


def test_one_long_punctuated_token_over_the_word_limit_is_searched_in_part(searcher) -> None:
    """Each part of ``logit:logit:…`` is a word: past the limit, the first 64 are searched,
    saying so."""
    found = searcher.search(":".join(["logit"] * 85))
    assert found.left_out is not None and found.left_out.notice == (
        f"Searched the first {MAX_ATOMS} words and phrases of 85; the rest were left out.")
    assert places(found) == places(searcher.search("logit"))
    query = ":".join(["logit"] * MAX_ATOMS)
    assert len(positive_words(parse_query(query))) == MAX_ATOMS
    assert places(searcher.search(query)) == places(searcher.search("logit"))
    assert searcher.search(query).left_out is None


@pytest.mark.parametrize("query, first, written, among", [
    # softmax is left out, and said to be: the results are the ones "the" finds
    (" ".join(["the"] * MAX_ATOMS + ["softmax"]), "the", 65, ""),
    (" ".join(['"of a"'] * MAX_ATOMS + ["softmax"]), '"of a"', 65, ""),
    # an exclusion or a phrase left out changes what is found: the notice names them
    (" ".join(["logit"] * MAX_ATOMS + ['-softmax', '-"the model"', '"the logit"']), "logit",
     67, ", among them 2 to exclude and 1 phrase"),
    (" ".join(["logit"] * MAX_ATOMS + ["-(softmax", "NOT", "temperature)", "--scaling"]),
     "logit", 67, ", among them 1 to exclude"),  # softmax; NOT NOT, --: temperature, scaling
])
def test_the_words_after_the_limit_are_left_out_saying_so(searcher, query, first, written,
                                                           among) -> None:
    found = searcher.search(query, limit=50)
    assert places(found) == places(searcher.search(first, limit=50)) != []
    assert found.left_out is not None and found.left_out.notice == (
        f"Searched the first {MAX_ATOMS} words and phrases of {written}; the rest were left "
        f"out{among}.")


def test_a_query_whose_first_words_only_exclude_is_refused_saying_so(searcher) -> None:
    """softmax, the 65th, is left out: what is searched only excludes words."""
    with pytest.raises(BadQuery, match=f"only excludes words in its first {MAX_ATOMS} words "
                                       f"and phrases of {MAX_ATOMS + 1}, the ones searched"):
        searcher.search(" ".join([f"-w{n}" for n in range(MAX_ATOMS)] + ["softmax"]))


def test_phrases_left_out_do_not_count_toward_the_phrase_limit(searcher) -> None:
    """Nine different phrases, the ninth after the 64th word: it is not searched."""
    query = " ".join(PHRASES[:MAX_PHRASES] + ["logit"] * (MAX_ATOMS - MAX_PHRASES)
                     + [PHRASES[MAX_PHRASES]])
    assert searcher.search(query).left_out.phrases == 1


def test_a_query_of_as_many_words_as_the_limit_is_searched_whole(searcher) -> None:
    query = " ".join(["the"] * (MAX_ATOMS - 1) + ["softmax"])
    found = searcher.search(query, limit=50)
    assert places(found) == places(searcher.search("the softmax", limit=50))
    assert found.left_out is None


# --- Phrases --------------------------------------------------------------------------------

COMMON = ["the", "a", "of", "to", "is"]
PHRASES = ['"of the"', '"to the"', '"is a"', '"in the"', '"the model"', '"next token"',
           '"the next"', '"of a"', '"the same"', '"a token"']


def test_more_phrases_than_the_limit_are_refused_naming_it(searcher) -> None:
    """Each phrase reads where its words stand in every section that holds them all: 56
    phrases of common words took 22 s on a course of 10,000 sections, and four such queries
    at once left a server answering nothing."""
    query = " ".join(PHRASES[:MAX_PHRASES + 1])
    with pytest.raises(BadQuery, match=f"Too many phrases: the query has {MAX_PHRASES + 1} "
                                       f"in quotes, and at most {MAX_PHRASES} are searched"):
        searcher.search(query)
    searcher.search(" ".join(PHRASES[:MAX_PHRASES]))  # answered


def test_words_joined_past_the_phrase_limit_are_searched_as_their_words(searcher) -> None:
    """A pasted paragraph writes "step-by-step", "set-up", "read-only" …: it was refused as
    too many phrases, though none was in quotes. A word of several parts is a phrase while
    fewer than the limit are searched, and after that its words, each required, anywhere."""
    joined = [f"{a}-{b}" for a in COMMON for b in COMMON if a != b]
    assert len(joined) > MAX_PHRASES
    found = searcher.search(" ".join(joined), limit=50)
    loose = joined[:MAX_PHRASES] + [w.replace("-", " ") for w in joined[MAX_PHRASES:]]
    assert places(found) == places(searcher.search(" ".join(loose), limit=50))
    assert places(found) != places(searcher.search(" ".join(joined).replace("-", " "),
                                                   limit=50))


def test_quoted_phrases_count_toward_the_limit_whatever_words_are_joined(searcher) -> None:
    joined = [f"{a}-{b}" for a in COMMON for b in COMMON if a != b]
    searcher.search(" ".join(joined + PHRASES[:MAX_PHRASES]))  # answered
    with pytest.raises(BadQuery, match="Too many phrases"):
        searcher.search(" ".join(joined + PHRASES[:MAX_PHRASES + 1]))


@pytest.mark.parametrize("query", [
    " ".join(['"the logit"'] * 40),
    '"the logit" "The  logit" "THE LOGIT"',
    '"the logit" OR "the logit"',
])
def test_a_phrase_written_again_is_searched_once(searcher, query) -> None:
    once = searcher.search('"the logit"', limit=50)
    assert once.results
    assert searcher.search(query, limit=50).results == once.results


def test_a_phrase_written_again_counts_once_toward_the_limit(searcher) -> None:
    """Eight phrases, each written three times: eight different phrases, searched once each
    (no section holds them all: the sections holding the most of them, ranked so)."""
    once = searcher.search(" ".join(PHRASES[:MAX_PHRASES]), limit=50)
    assert once.relaxed and once.results
    assert searcher.search(" ".join(PHRASES[:MAX_PHRASES] * 3), limit=50).results == (
        once.results)


# --- Contractions ---------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["what's a logit", "what’s a logit", "whats a logit"])
def test_whats_asks_what_what_is_asks(searcher, query) -> None:
    response = searcher.search(query, limit=50)
    assert places(response) == places(searcher.search("what is a logit", limit=50))
    assert ("logits-and-softmax", "scores-before-probabilities") in places(response)
    assert list(response.words) == ["logit"]


@pytest.mark.parametrize("query", ["what's a token?", "what’s a token?"])
def test_a_contracted_question_finds_the_lesson_on_its_topic(searcher, query) -> None:
    assert searcher.search(query).results[0].lesson == "tokens-and-tokenizers"


@pytest.mark.parametrize(("contraction", "meaning"), [
    ("how's", "how is"), ("where's", "where is"), ("who's", "who is"), ("it's", "it is"),
    ("that's", "that is"), ("don't", "do not"), ("doesn't", "does not"), ("isn't", "is not"),
    ("can't", "can not"), ("won't", "will not"), ("they're", "they are"), ("I'm", "I am"),
    ("we'll", "we will"), ("I've", "I have"), ("you'd", "you would"), ("There’s", "there is"),
])
def test_a_contraction_reads_as_its_words(searcher, contraction, meaning) -> None:
    response = searcher.search(f"{contraction} softmax temperature", limit=50)
    assert list(response.words) == ["softmax", "temperature"]
    assert response.total > 0
    assert places(response) == places(searcher.search(f"{meaning} softmax temperature",
                                                      limit=50))


def test_a_contraction_is_not_marked_in_snippets(searcher) -> None:
    snippets = " ".join(hit.snippet for hit in searcher.search("what's a logit").results)
    assert "<mark>logit" in snippets.lower()
    assert "<mark>what" not in snippets.lower()


def test_a_possessive_is_still_a_content_word(searcher) -> None:
    response = searcher.search("model's")
    assert list(response.words) == ["model's"]
    assert response.total == searcher.search("model").total


# --- Accents --------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "suggestion", "plain"), [
    ("émbedding", "embedding", "embedding"),
    ("Émbedding", "Embedding", "embedding"),
    ("embèdding", "embedding", "embedding"),
    ("émbeddings", "embeddings", "embeddings"),
    ("émbedings", "embeddings", "embeddings"),  # an accent and a letter missing
])
def test_an_accent_the_course_does_not_write_is_corrected(searcher, query, suggestion,
                                                          plain) -> None:
    response = searcher.search(query, limit=50)
    expected = searcher.search(plain, limit=50)
    assert expected.total > 0
    assert response.suggestion == suggestion
    assert places(response) == places(expected)
    assert [t.term for t in response.terms] == ["embedding"]


@pytest.mark.parametrize(("query", "suggestion", "anchor"), [
    ("naive", "naïve", "the-naïve-baseline"),
    ("resume", "résumé", "reading-a-résumé"),
    ("cafe", "café", "over-coffee"),  # short words get no edits, but their accents match
    ("cafè", "café", "over-coffee"),
    ("ca", "ça", "ça-va"),  # two letters: a word of any length
    ("ou", "où", "ça-va"),
])
def test_a_word_typed_without_the_courses_accents_finds_it(accented, query, suggestion,
                                                           anchor) -> None:
    response = accented.search(query)
    assert response.suggestion == suggestion
    assert places(response) == [("classifiers", anchor)]
    assert f"<mark>{suggestion}</mark>" in response.results[0].snippet


def test_a_short_word_still_gets_no_guessed_letters(accented) -> None:
    response = accented.search("cafes")  # one letter from "café": five letters, one edit
    assert response.suggestion == "café"
    assert accented.search("caff").suggestion is None  # four letters: no edits


# --- Two slips in a long word ---------------------------------------------------------------


@pytest.mark.parametrize(("query", "suggestion"), [
    ("tempreture", "temperature"),  # a letter missing and two swapped
    ("halucinaton", "hallucination"),  # two letters missing
    ("distrubition", "distribution"),  # two letters changed
    ("vocabluray", "vocabulary"),  # two pairs swapped
])
def test_a_long_word_two_edits_away_is_corrected(searcher, query, suggestion) -> None:
    response = searcher.search(query, limit=50)
    expected = searcher.search(suggestion, limit=50)
    assert expected.total > 0
    assert response.suggestion == suggestion
    assert places(response) == places(expected)


def test_tempreture_finds_the_temperature_lesson(searcher) -> None:
    response = searcher.search("tempreture")
    assert response.suggestion == "temperature"
    assert response.words == ("temperature",)
    assert response.results[0].lesson == "temperature"
    assert "<mark>temperature</mark>" in response.results[0].snippet.lower()


@pytest.mark.parametrize("query", [
    "clicking",  # words the course does not write, two edits from ones it does
    "constant",
])
def test_a_real_word_under_nine_letters_is_not_guessed_two_edits_away(searcher,
                                                                      query) -> None:
    response = searcher.search(query)
    assert response.suggestion is None
    assert response.total == 0


def test_a_word_the_course_writes_is_left_alone(searcher) -> None:
    response = searcher.search("correction")  # two edits from "connection", used more
    assert response.suggestion is None
    assert response.words == ("correction",)
    assert any("<mark>correction</mark>" in hit.snippet for hit in response.results)


# --- A word cut short, as a search box's is while it is typed -------------------------------


@pytest.mark.parametrize(("query", "suggestion", "whole"), [
    ("temperatu", "temperature", "temperature"),
    ("softm", "softmax", "softmax"),  # not "soft", one letter away
    ("sampling strat", "sampling strategies", "sampling strategies"),  # not "start"
    ("what is a logi", "what is a logit", "what is a logit"),
])
def test_a_word_cut_short_is_completed_to_the_courses_most_used(searcher, query, suggestion,
                                                                 whole) -> None:
    response = searcher.search(query, limit=50, typing=True)
    assert response.suggestion == suggestion
    assert response.total > 0
    assert places(response) == places(searcher.search(whole, limit=50))


def test_completion_needs_four_letters_and_a_word_that_begins_so(searcher) -> None:
    assert searcher.search("sof", typing=True).suggestion is None
    assert searcher.search("zzzz", typing=True).total == 0
    assert searcher.search("modle", typing=True).suggestion == "model"  # begins no word


@pytest.fixture(scope="module")
def standard(tmp_path_factory: pytest.TempPathFactory):
    """A course that writes "standard" but never "stand", an English word it begins."""
    lessons = tmp_path_factory.mktemp("standard") / "lessons"
    lessons.mkdir()
    (lessons / "01-caching.md").write_text(
        "---\ntitle: Caching results\nslug: caching\n---\n\n"
        "## Remembering answers\n\n"
        "Python's standard library offers an LRU cache in functools, "
        "and the standard one is usually enough.\n",
        encoding="utf-8",
    )
    out = lessons.parent / "index"
    build_index(lessons, None, out)
    opened = Searcher.open(out)
    yield opened
    opened.close()


@pytest.mark.parametrize("query", ["what does LRU stand for?", "where do I stand", "stand",
                                   "stan"])
def test_a_submitted_searchs_words_are_not_completed(standard, query) -> None:
    """"stand" is a whole word: it was searched as "standard", which only begins so."""
    response = standard.search(query)
    assert response.suggestion is None
    assert "standard" not in response.words
    assert not any("<mark>standard</mark>" in hit.snippet for hit in response.results)


def test_only_the_word_being_typed_is_completed(standard) -> None:
    assert standard.search("where do I stan", typing=True).suggestion == "where do I standard"
    assert standard.search("what does LRU stand for?", typing=True).suggestion is None
    assert standard.search("stand library", typing=True).suggestion is None
    assert standard.search("stan?", typing=True).suggestion is None  # finished: not completed


def test_a_misspelt_word_of_a_submitted_search_is_still_corrected(standard) -> None:
    assert standard.search("the standrad library").suggestion == "the standard library"
    assert standard.search("LRU cahce").suggestion == "LRU cache"


def test_a_word_is_not_completed_to_a_name_it_numbers(tmp_path) -> None:
    """"layer norm" suggested "layer norm1", a name in code, where the course writes norm1
    more often than "normalisation"."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-block.md").write_text(
        "---\ntitle: Inside a block\n---\n\n## The layers in order\n\n"
        "The layer calls `norm1` before attention and `norm2` before the feed-forward part; "
        "norm1 is used twice as often as normalisation is named.\n", encoding="utf-8")
    build_index(lessons, None, tmp_path / "index")
    opened = Searcher.open(tmp_path / "index")
    try:
        assert opened.search("layer norm", typing=True).suggestion == "layer normalisation"
        assert opened.search("norm1", typing=True).suggestion is None  # written: no correction
    finally:
        opened.close()


# --- How a correction writes a name ---------------------------------------------------------


TOOLS = """---
title: Tools of the trade
---

## Editors

Many people write their first programs in Notepad++ on Windows, or in any editor they like.

## Languages

The exercises use Python, and the pages you build run JavaScript in the browser. Type
python in a terminal to check that Python is installed.

## Sharing

Your code lives on GitHub, where every change is kept.
"""

RECURSION = """---
title: Recursion
---

## Functions That Call Themselves

Recursion is a function calling itself. Recursion ends at a base case, and a loop can
replace recursion in most programs.

## Containers

Docker packs a program with what it needs. Type docker build, then docker run: the Docker
daemon does the work.
"""


def build_tools(folder: Path, tools: str = TOOLS) -> Path:
    lessons = folder / "lessons"
    lessons.mkdir(exist_ok=True)
    (lessons / "01-tools.md").write_text(tools, encoding="utf-8")
    (lessons / "02-recursion.md").write_text(RECURSION, encoding="utf-8")
    build_index(lessons, None, folder / "index")
    return folder / "index"


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory):
    """A client over a course that writes names in mid-sentence, and ordinary words with a
    capital only where a sentence or a heading starts."""
    with serving(build_tools(tmp_path_factory.mktemp("tools"))) as client:
        yield client


def api_search(client, query: str) -> dict:
    got = client.get("/api/search", query_string={"q": query})
    assert got.status_code == 200, got.get_json()
    return got.get_json()


def hit_places(body: dict) -> list[tuple[str, str]]:
    return [(hit["lesson"], hit["anchor"]) for hit in body["results"]]


@pytest.mark.parametrize(("query", "suggestion"), [
    ("notpad++", "Notepad++"),  # was notepad++: the name as the course writes it
    ("Notpad++", "Notepad++"),
    ("pyhton", "Python"),  # the course's "python" in a command is the rarer spelling
    ("Pyhton", "Python"),
    ("javscript", "JavaScript"),
    ("Javscript", "JavaScript"),  # the capital typed, the name's own inside it
    ("githb", "GitHub"),
    ("githb sharing", "GitHub sharing"),
    ("java script", "JavaScript"),  # two words the course writes as one
    ("PYHTON", "Python"),  # typed in capitals: a name is still spelt one way
    ("NOTPAD++", "Notepad++"),
    ("GITHB", "GitHub"),
    ("RECURSOIN", "RECURSION"),  # a word keeps the reader's capitals
    ("RECURSOIN IN PYHTON", "RECURSION IN Python"),
    ("recursoin", "recursion"),  # capitalised only where a sentence or a title starts
    ("Recursoin", "Recursion"),  # the reader's own capital
    ("functoins", "functions"),  # capitalised only in a title-case heading
    ("dockre", "docker"),  # a name the course writes more often as a command
])
def test_a_correction_writes_a_name_as_the_course_does(tools, query, suggestion) -> None:
    body = api_search(tools, query)
    assert body["suggestion"] == suggestion
    again = api_search(tools, suggestion)
    assert again["suggestion"] is None
    assert hit_places(body) and hit_places(again) == hit_places(body)


def test_the_search_page_offers_the_name_as_the_course_writes_it(tools) -> None:
    for query, said, link in [("notpad++", "Notepad++", "/search?q=Notepad%2B%2B"),
                              ("pyhton", "Python", "/search?q=Python")]:
        page = Page(tools.get("/search", query_string={"q": query}).get_data(as_text=True))
        assert f"Showing results for “ {said} ”." in page.text  # the link's text, quoted
        assert link in page.links()


def test_a_rebuild_writes_a_name_as_the_course_now_does(tmp_path: Path) -> None:
    """A lesson that now writes the name in lower case makes it a word again, in a build
    that reuses the other lesson's counts."""
    index = build_tools(tmp_path)
    with serving(index) as client:
        assert api_search(client, "pyhton")["suggestion"] == "Python"
    build_tools(tmp_path, TOOLS.replace("use Python", "use python"))
    with serving(index) as client:
        assert api_search(client, "pyhton")["suggestion"] == "python"
        assert api_search(client, "githb")["suggestion"] == "GitHub"


SHARING = """---
title: Sharing code
---

## Hosting

Your code lives on GitHub, and each change you push to GitHub is kept. Clone the examples
from https://github.com/octocat/hello-world or `github.com/octocat`, write to
support@github.com when stuck, and keep your token in ~/github/config.

## Why JavaScript

JavaScript runs in every browser. A script is loaded by the page.

## RUNNING THE EXAMPLES

- PyTorch trains the examples' models.
- Each of the examples prints its result.
"""


@pytest.fixture(scope="module")
def sharing(tmp_path_factory: pytest.TempPathFactory):
    """A course that writes a name's lower case only in addresses, and names with inner
    capitals only where a sentence, a list item or a heading starts."""
    folder = tmp_path_factory.mktemp("sharing")
    (folder / "lessons").mkdir()
    (folder / "lessons" / "01-sharing.md").write_text(SHARING, encoding="utf-8")
    build_index(folder / "lessons", None, folder / "index")
    with serving(folder / "index") as client:
        yield client


@pytest.mark.parametrize(("query", "suggestion"), [
    ("githb", "GitHub"),  # was github: four addresses write it in lower case, prose never
    ("Githb", "GitHub"),  # was Github
    ("javascrpt", "JavaScript"),  # was javascript: only at a sentence's start
    ("Javascrpt", "JavaScript"),
    ("pytroch", "PyTorch"),  # only at a list item's start
    ("exampels", "examples"),  # a heading in capitals names nothing
    ("Exampels", "Examples"),
])
def test_a_name_is_read_from_prose_not_addresses_and_by_its_inner_capitals(
        sharing, query, suggestion) -> None:
    body = api_search(sharing, query)
    assert body["suggestion"] == suggestion
    again = api_search(sharing, suggestion)
    assert again["suggestion"] is None
    assert hit_places(body) and hit_places(again) == hit_places(body)


def test_the_search_page_offers_a_name_its_addresses_write_in_lower_case(sharing) -> None:
    page = Page(sharing.get("/search", query_string={"q": "githb"}).get_data(as_text=True))
    assert "Showing results for “ GitHub ”." in page.text
    assert "/search?q=GitHub" in page.links()


# --- A slip whose stem the course writes ----------------------------------------------------


@pytest.fixture(scope="module")
def sample_client(sample_index: Path):
    with serving(sample_index) as client:
        yield client


@pytest.mark.parametrize(("query", "suggestion"), [
    ("embeding", "embedding"),  # Snowball's stem of both is "embed", which finds hits
    ("Embeding", "Embedding"),
    ("what is embeding?", "what is embedding?"),
    ("embeding vectors", "embedding vectors"),  # ranked as the corrected search is
])
def test_a_slip_is_corrected_though_its_stem_finds_sections(sample_client, query,
                                                            suggestion) -> None:
    body = api_search(sample_client, query)
    assert body["suggestion"] == suggestion
    assert body["suggestion_searched"] is False  # the same search: "Did you mean"
    assert [term["term"] for term in body["terms"]] == ["embedding"]
    corrected = api_search(sample_client, suggestion)
    assert corrected["suggestion"] is None
    assert hit_places(body) and hit_places(corrected) == hit_places(body)
    assert body["total"] == corrected["total"]


def test_the_search_page_offers_the_word_and_its_card_for_a_slip(sample_client) -> None:
    page = Page(sample_client.get("/search", query_string={"q": "embeding"})
                .get_data(as_text=True))
    assert "Did you mean “ embedding ”?" in page.text
    assert "/search?q=embedding" in page.links()
    assert "/glossary/embedding" in page.links()  # the term's card


@pytest.mark.parametrize("query", ["embed", "embeds"])
def test_the_verb_finds_the_lesson_on_its_nouns(sample_client, query) -> None:
    """Snowball stemmed "embed" "emb", as if its "-ed" were a past tense, and "embedding"
    "embed": a search for embed found the one section that calls ``embed(question)``, not
    the lesson on embeddings."""
    body = api_search(sample_client, query)
    assert body["total"] == api_search(sample_client, "embedding")["total"] > 2
    assert body["results"][0]["lesson"] == "embeddings"


@pytest.mark.parametrize(("query", "searched"), [
    ("embedder", "embed"), ("Embedder", "Embed"), ("embedders", "embed")])
def test_a_word_with_another_ending_is_no_slip_of_the_courses(sample_client, query,
                                                              searched) -> None:
    """"embedder" suggested "embedded", one letter away: the course writes embedded and
    embedding, not embedder, but an embedder is another word made from embed, spelt right.
    Snowball stems it "embedd", which no section holds, so it found nothing; it is searched
    as embed, the verb it was made from, and the page says so."""
    body = api_search(sample_client, query)
    assert body["suggestion"] is None
    assert body["related"] == [{"word": query, "searched": searched}]
    assert body["total"] == api_search(sample_client, "embed OR embedding")["total"] > 0
    assert "embeddings" in {hit["lesson"] for hit in body["results"]}
    assert "<mark>embed" in body["results"][0]["snippet"].lower()
    page = Page(sample_client.get("/search", query_string={"q": query})
                .get_data(as_text=True))
    assert f"No results for “{query}”; showing results for “{searched}”." in page.text
    assert "Did you mean" not in page.text and "/search?q=embedded" not in page.links()


AGENT_NOUNS = """---
title: Words and what they do
slug: words
---

## Embedding text

To embed a sentence is to turn it into numbers; once embedded, two sentences can be
compared.

## Guessing ahead

A model predicts the next word, and predicting it well takes a great deal of text.

## The farm

Corn grows in the field, and pap is a porridge made from it. The sampler of the farm's
produce is sold on Saturdays.
"""


@pytest.fixture(scope="module")
def agent_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course that writes verbs (embed, predict) but not their agent nouns, and words
    that an -er would seem to be made from (corn, pap) but which are no verbs."""
    folder = tmp_path_factory.mktemp("agent-nouns")
    (folder / "lessons").mkdir()
    (folder / "lessons" / "01-words.md").write_text(AGENT_NOUNS, encoding="utf-8")
    build_index(folder / "lessons", None, folder / "index")
    return folder / "index"


@pytest.fixture(scope="module")
def agent_nouns(agent_index: Path):
    with serving(agent_index) as client:
        yield client


@pytest.mark.parametrize(("query", "searched", "section"), [
    ("embedder", "embed", "embedding-text"),  # found nothing
    ("Embedders", "Embed", "embedding-text"),
    ("predictor", "predict", "guessing-ahead"),  # "Did you mean predict?", two slips away
    ("predictors", "predict", "guessing-ahead"),
    ("what does an embedder do?", "embed", "embedding-text"),
])
def test_an_agent_noun_the_course_never_writes_is_searched_as_its_verb(
        agent_nouns, query, searched, section) -> None:
    body = api_search(agent_nouns, query)
    assert body["related"] == [{"word": query.split()[-2] if " " in query else query,
                                "searched": searched}]
    assert body["suggestion"] is None
    assert hit_places(body) == [("words", section)]


def test_the_verb_s_forms_are_marked_in_the_snippet(agent_nouns) -> None:
    (hit,) = api_search(agent_nouns, "embedder")["results"]
    assert hit["snippet"] == ("To <mark>embed</mark> a sentence is to turn it into numbers; "
                              "once <mark>embedded</mark>, two sentences can be compared.")


@pytest.mark.parametrize(("query", "total"), [
    ("corner", 0),  # the course writes corn, but never corning or corned: corn is no verb
    ("paper", 0),  # nor is pap
    ("sampler", 1),  # written: searched as it is
    ('"embedder"', 0),  # in quotes: the word as written
    ("farm -embedder", 1),  # excluding a word no section holds excludes nothing
])
def test_a_word_that_only_ends_so_or_is_written_is_searched_as_it_is(
        agent_nouns, query, total) -> None:
    body = api_search(agent_nouns, query)
    assert (body["total"], body["related"], body["suggestion"]) == (total, [], None)


VERBS_OR_NOT = """---
title: Verbs and look-alikes
slug: look-alikes
---

## Drawing tokens

A model samples the next token: each one is sampled in proportion to its probability, and
sampling again gives another text.

## Cutting text

Text is tokenized before a model reads it; to tokenize it is to cut it into tokens.

## Reading the output

The model's output is parsed token by token, and parsing stops at the end token.

## Training

A model is trained on text, and training it takes weeks.

## Emptying a cache

To flush a cache is to empty it; flushing it often costs time.

## Cables

The leading bits of an address name its network. Cables are boring.
"""


@pytest.fixture(scope="module")
def look_alikes(tmp_path_factory: pytest.TempPathFactory):
    """A course that uses some verbs as verbs (sample, tokenize, decode, flush), and writes
    words that only look like a verb's forms: "leading" bits, "boring" cables. Snowball
    stems tokenizers and tokenized alike ("tokeniz"): that word is written, and found so."""
    folder = tmp_path_factory.mktemp("look-alikes")
    (folder / "lessons").mkdir()
    (folder / "lessons" / "01-look-alikes.md").write_text(VERBS_OR_NOT, encoding="utf-8")
    build_index(folder / "lessons", None, folder / "index")
    with serving(folder / "index") as client:
        yield client


@pytest.mark.parametrize(("query", "searched", "section"), [
    ("samplers", "sample", "drawing-tokens"),  # samples, sampled, sampling
    ("parser", "parse", "reading-the-output"),  # was "parsed": the verb, not a form
    ("trainer", "train", "training"),  # no e put back: not "traine"
    ("flusher", "flush", "emptying-a-cache"),  # was "flushing"
])
def test_an_agent_noun_is_searched_as_its_verb_and_named_as_the_verb(
        look_alikes, query, searched, section) -> None:
    """The verb itself is named, as in "No results for embedder; showing results for
    embed", even where the course writes only its -ed and -ing forms (parsed, parsing)."""
    body = api_search(look_alikes, query)
    assert body["related"] == [{"word": query, "searched": searched}]
    assert hit_places(body) == [("look-alikes", section)]
    page = Page(look_alikes.get("/search", query_string={"q": query}).get_data(as_text=True))
    assert f"No results for “{query}”; showing results for “{searched}”." in page.text


def test_an_agent_noun_snowball_stems_as_its_verb_is_found_as_written(look_alikes) -> None:
    body = api_search(look_alikes, "tokenizers")
    assert (hit_places(body), body["related"]) == ([("look-alikes", "cutting-text")], [])


@pytest.mark.parametrize("query", [
    "leader",  # searched as "leading", the leading bits
    "borer",  # as "boring", boring cables
    "flushor",  # as "flushing": -or is no ending of flush, which takes -er
])
def test_a_word_is_not_searched_as_a_verb_the_course_does_not_use_as_one(
        look_alikes, query) -> None:
    body = api_search(look_alikes, query)
    assert (body["total"], body["related"]) == (0, [])
    page = Page(look_alikes.get("/search", query_string={"q": query}).get_data(as_text=True))
    assert "showing results for" not in page.text


INFLECTIONS = """---
title: Splitting text
---

## Tokens

To tokenize a text is to cut it into tokens; a tokenizer does it. A model can embed each
token, and the embedding is a list of numbers. Modelling language starts here.
"""


@pytest.fixture(scope="module")
def inflections(tmp_path_factory: pytest.TempPathFactory):
    """A course that writes some of a word's inflections and not others."""
    folder = tmp_path_factory.mktemp("inflections")
    (folder / "lessons").mkdir()
    (folder / "lessons" / "01-split.md").write_text(INFLECTIONS, encoding="utf-8")
    build_index(folder / "lessons", None, folder / "index")
    with serving(folder / "index") as client:
        yield client


@pytest.mark.parametrize("query", [
    "tokenizing",  # the course writes tokenize and tokenizer, no slip of either
    "tokenizers",
    "tokenized",
    "tokeniser",  # British, one letter from "tokenizer" but at its ending
    "modeling",  # American: the course writes "Modelling", no slip of it
    "embeds",  # one letter from "embed", but an inflection of it
    "embeddings",
    "models",
])
def test_an_inflection_the_course_does_not_write_is_not_corrected(inflections,
                                                                 query) -> None:
    body = api_search(inflections, query)
    assert body["suggestion"] is None
    assert hit_places(body) == [("split", "tokens")]


@pytest.mark.parametrize(("query", "suggestion"), [
    ("embeding", "embedding"),
])
def test_a_slip_inside_a_word_is_corrected_to_the_courses(inflections, query,
                                                          suggestion) -> None:
    body = api_search(inflections, query)
    assert body["suggestion"] == suggestion
    assert hit_places(body) == [("split", "tokens")]


# --- A word the course writes as two ----------------------------------------------------------


HOME_NETWORK = """---
title: Addresses at home
---

## Who is local

Each device has an address and a subnet mask. The subnet mask says which addresses are
local; anything else goes to the default gateway.

## Handing out addresses

The DHCP server in the router hands out addresses. Ask the DHCP server again after a
change, and check the subnet mask it gave.

## Notes

There is no table of addresses on the router's front page. Two cables to one switch are
faster only where the switch allows aggregation of each link.
"""


@pytest.fixture(scope="module")
def home_network(tmp_path_factory: pytest.TempPathFactory):
    """A course that writes subnet mask and default gateway as two words each, and a
    glossary with the first as a term."""
    folder = tmp_path_factory.mktemp("home-network")
    (folder / "lessons").mkdir()
    (folder / "glossary").mkdir()
    (folder / "lessons" / "01-addresses.md").write_text(HOME_NETWORK, encoding="utf-8")
    (folder / "glossary" / "glossary.md").write_text(
        "subnet mask\n: The number that says which part of an address names the network.\n\n"
        "link aggregation\n: Cables between two devices used as one faster link.\n",
        encoding="utf-8")
    build_index(folder / "lessons", folder / "glossary", folder / "index")
    with serving(folder / "index") as client:
        yield client


@pytest.mark.parametrize(("query", "suggestion", "as_two"), [
    ("subnetmask", "subnet mask", "subnet mask"),  # a glossary term, written in prose
    ("Subnetmask", "Subnet mask", "subnet mask"),
    ("what is a subnetmask?", "what is a subnet mask?", "what is a subnet mask?"),
    ("defaultgateway", "default gateway", "default gateway"),  # written side by side
    ("dhcpserver", "DHCP server", "DHCP server"),  # as the course writes the name
    ("router subnetmask", "router subnet mask", "router subnet mask"),
])
def test_a_word_the_course_writes_as_two_is_searched_as_them(home_network, query,
                                                             suggestion, as_two) -> None:
    """"subnetmask" showed the subnet mask card and "No sections match", with no "did you
    mean": only two words were ever read as one ("sub net" as subnet), not one as two."""
    body = api_search(home_network, query)
    assert body["suggestion"] == suggestion
    apart = api_search(home_network, as_two)
    assert apart["suggestion"] is None
    assert hit_places(body) and hit_places(body) == hit_places(apart)
    assert body["terms"] == apart["terms"]
    typed = home_network.get("/api/search", query_string={"q": query, "typing": "1"})
    assert typed.get_json()["suggestion"] == suggestion  # the search box's answer


def test_a_word_cut_into_a_glossary_terms_name_is_suggested_as_it(home_network) -> None:
    """The course never writes link aggregation side by side, but the glossary names it."""
    body = api_search(home_network, "linkaggregation")
    assert body["suggestion"] == "link aggregation"
    assert [term["term"] for term in body["terms"]] == ["link aggregation"]


def test_the_search_page_offers_the_two_words(home_network) -> None:
    html = home_network.get("/search", query_string={"q": "subnetmask"}).get_data(as_text=True)
    page = Page(html)
    assert "Showing results for “ subnet mask ”." in page.text
    assert "/search?q=subnet+mask" in page.links()
    assert "No sections match" not in page.text
    assert "<mark>subnet</mark> <mark>mask</mark>" in html


@pytest.mark.parametrize("query", [
    "notable",  # "no table": a stop word
    "subnetmasks-x",  # not a plain word
    "-subnetmask router",  # excluded: left as typed
    '"subnetmask"',  # in quotes
])
def test_a_word_is_not_cut_at_a_stop_word_nor_outside_plain_words(home_network,
                                                                   query) -> None:
    assert api_search(home_network, query)["suggestion"] is None


def test_a_word_being_typed_that_begins_a_courses_word_is_not_cut(home_network) -> None:
    """"subnet" and "s" are no cut ("s" is too short), and "subnetm" is still typed."""
    body = home_network.get("/api/search",
                            query_string={"q": "subnetm", "typing": "1"}).get_json()
    assert body["suggestion"] != "subnet m"

# --- A short name with two letters swapped ----------------------------------------------------


SWITCHES = """---
title: Switches and addresses
---

## Getting an address

The router runs DHCP: a device asks the DHCP server for an address when it joins, and
DHCP hands one out for a while. The NAS in the cupboard keeps its address for good.

## Separate networks on one switch

A VLAN splits one switch into separate networks. Each VLAN has a number, and a port
in one VLAN never sees the traffic of another. An old hub cannot do this: it sends every
frame to every port.
"""


@pytest.fixture(scope="module")
def switches(tmp_path_factory: pytest.TempPathFactory):
    """A course that writes acronyms in capitals, one of them a glossary term, and a
    glossary term of three letters in lower case."""
    folder = tmp_path_factory.mktemp("switches")
    (folder / "lessons").mkdir()
    (folder / "glossary").mkdir()
    (folder / "lessons" / "01-switches.md").write_text(SWITCHES, encoding="utf-8")
    (folder / "glossary" / "glossary.md").write_text(
        "DHCP\n: The protocol that hands out addresses to devices as they join.\n\n"
        "hub\n: A box that repeats every frame to every port.\n", encoding="utf-8")
    build_index(folder / "lessons", folder / "glossary", folder / "index")
    with serving(folder / "index") as client:
        yield client


@pytest.mark.parametrize(("query", "suggestion", "meant"), [
    ("DHPC", "DHCP", "DHCP"),  # a glossary term
    ("dhpc", "DHCP", "DHCP"),  # as the course writes it
    ("what is DHPC?", "what is DHCP?", "what is DHCP?"),
    ("vlna", "VLAN", "VLAN"),  # no term, but written in capitals, four times
    ("VLNA port", "VLAN port", "VLAN port"),
    ("hbu", "hub", "hub"),  # a term of three letters
])
def test_a_short_name_with_two_letters_swapped_is_corrected(switches, query, suggestion,
                                                            meant) -> None:
    """"DHPC" and "vlna" found nothing and suggested nothing: only words of five letters or
    more were corrected."""
    body = api_search(switches, query)
    assert body["suggestion"] == suggestion
    written = api_search(switches, meant)
    assert written["suggestion"] is None
    assert hit_places(body) and hit_places(body) == hit_places(written)
    assert body["terms"] == written["terms"]


@pytest.mark.parametrize(("query", "meant"), [("dhco", "DHCP"), ("DHCO", "DHCP")])
def test_a_short_word_one_slip_from_a_term_is_the_term(switches, query, meant) -> None:
    """A p for the o beside it, and DHCP is a glossary term: no other word is near."""
    assert api_search(switches, query)["suggestion"] == meant


@pytest.mark.parametrize("query", [
    "DOS",  # an o for an n, keys apart: no slip of DNS
    "nsa",  # NAS, written once: no name the course uses
    "prot",  # port, written twice, but neither a term nor in capitals
    "form",  # "from", a word
])
def test_a_short_word_is_corrected_only_to_a_name_by_a_swap(switches, query) -> None:
    body = api_search(switches, query)
    assert body["suggestion"] is None

# --- A British or American spelling of the course's word ------------------------------------


QUEUES = """---
title: Queues on the router
---

## Busy links

Prioritization of calls over downloads helps once the queue is managed. The optimisation
that helps most is a shorter queue, and the router analyses its traffic every second.
"""


@pytest.fixture(scope="module")
def queues(tmp_path_factory: pytest.TempPathFactory):
    """A course whose glossary spells a term the British way and whose prose spells it the
    American way, and writes other words the British way."""
    folder = tmp_path_factory.mktemp("queues")
    (folder / "lessons").mkdir()
    (folder / "glossary").mkdir()
    (folder / "lessons" / "01-queues.md").write_text(QUEUES, encoding="utf-8")
    (folder / "glossary" / "glossary.md").write_text(
        "prioritisation\n: Letting some traffic go first when the link is busy.\n",
        encoding="utf-8")
    build_index(folder / "lessons", folder / "glossary", folder / "index")
    with serving(folder / "index") as client:
        yield client


@pytest.mark.parametrize("query", [
    "prioritisation",  # the glossary's spelling: the prose writes prioritization
    "Prioritisation",
    "optimization",  # the prose writes optimisation
    "analyzes",  # and analyses
])
def test_the_other_spelling_of_a_courses_word_is_no_slip(queues, query) -> None:
    """"prioritisation" suggested "prioritization", one letter away with the same stem and
    the same last three letters, though the search finds the same sections for both."""
    body = api_search(queues, query)
    assert body["suggestion"] is None
    assert hit_places(body) == [("queues", "busy-links")]
    page = Page(queues.get("/search", query_string={"q": query}).get_data(as_text=True))
    assert "Did you mean" not in page.text


def test_a_slip_in_a_word_the_course_spells_both_ways_is_still_corrected(queues) -> None:
    body = api_search(queues, "prioritizaton")
    assert body["suggestion"] == "prioritization"
    assert [term["term"] for term in body["terms"]] == ["prioritisation"]


# --- British and American spellings ------------------------------------------------------------


BRITISH = """---
title: Behaviour of models
---

## Neighbouring tokens

The behaviour of a model depends on its neighbouring tokens. Labelling data is slow, and
each artefact of the labelling is kept in grey.

## Choices

Training favoured short answers, and the loss kept favouring them. The curve is centred on
zero; the catalogues of colours and their defences were modelled by hand.

## Temperature

A higher temperature spreads the choices.
"""


@pytest.fixture(scope="module")
def british(tmp_path_factory: pytest.TempPathFactory):
    """A course written in British spelling."""
    folder = tmp_path_factory.mktemp("british")
    (folder / "lessons").mkdir()
    (folder / "lessons" / "01-behaviour.md").write_text(BRITISH, encoding="utf-8")
    build_index(folder / "lessons", None, folder / "index")
    with serving(folder / "index") as client:
        yield client


@pytest.mark.parametrize(("query", "place", "marked"), [
    ("behavior", ("behaviour", "neighbouring-tokens"), "behaviour"),
    ("neighboring", ("behaviour", "neighbouring-tokens"), "neighbouring"),
    ("labeling", ("behaviour", "neighbouring-tokens"), "Labelling"),
    ("artifact", ("behaviour", "neighbouring-tokens"), "artefact"),
    ("gray", ("behaviour", "neighbouring-tokens"), "grey"),
    ("favor", ("behaviour", "choices"), "favoured"),
    ("favoring", ("behaviour", "choices"), "favoured"),
    ("centered", ("behaviour", "choices"), "centred"),
    ("catalog", ("behaviour", "choices"), "catalogues"),
    ("colors", ("behaviour", "choices"), "colours"),
    ("defense", ("behaviour", "choices"), "defences"),
    ("modeled", ("behaviour", "choices"), "modelled"),
])
def test_an_american_spelling_finds_the_british_one_and_is_no_slip(british, query, place,
                                                                    marked) -> None:
    """A search for behavior said "Did you mean “behaviour”?" above the sections that write
    behaviour, telling an American reader a right word was misspelt; favor found nothing in
    a course that writes "favoured" and "favouring". Both spellings are one word now: the
    search finds the course's, marks it, and corrects nothing."""
    body = api_search(british, query)
    assert body["suggestion"] is None and body["suggestion_searched"] is False
    assert place in hit_places(body)
    snippet = next(hit["snippet"] for hit in body["results"]
                   if (hit["lesson"], hit["anchor"]) == place)
    assert f"<mark>{marked}</mark>" in snippet
    page = Page(british.get("/search", query_string={"q": query}).get_data(as_text=True))
    assert "Did you mean" not in page.text and "Showing results for" not in page.text


def test_a_slip_in_a_british_word_is_still_corrected(british) -> None:
    """A slip is corrected to the course's spelling, and the results are the corrected
    search's: "behavour" finds nothing as typed."""
    body = api_search(british, "behavour")
    assert body["suggestion"] == "behaviour" and body["suggestion_searched"] is True
    assert ("behaviour", "neighbouring-tokens") in hit_places(body)
    page = Page(british.get("/search", query_string={"q": "behavour"}).get_data(as_text=True))
    assert "Showing results for “ behaviour ”." in page.text


@pytest.mark.parametrize(("query", "suggestion", "searched"), [
    ("tempreture", "temperature", True),  # found as typed: nothing
    ("Tempreture spreads", "Temperature spreads", True),
])
def test_the_results_of_a_corrected_search_are_said_to_be_its(british, query, suggestion,
                                                              searched) -> None:
    """"Did you mean “temperature”?" sat above the results for temperature: the page says
    which search they are, and the API tells the two kinds of suggestion apart."""
    body = api_search(british, query)
    assert (body["suggestion"], body["suggestion_searched"]) == (suggestion, searched)
    assert hit_places(body) == [("behaviour", "temperature")]
    page = Page(british.get("/search", query_string={"q": query}).get_data(as_text=True))
    assert f"Showing results for “ {suggestion} ”." in page.text
    assert "Did you mean" not in page.text
