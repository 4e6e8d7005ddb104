"""Words a reader joins, hyphenates or joins with a symbol where the course writes them
otherwise: "warmup" for warm-up, "GPT-2" for gpt2, "gpt3" for GPT-3, ``pass@1`` as the course
writes it. On the sample course, where a tester met each, and on a small course of our own."""

from __future__ import annotations

import pytest
from course_fixtures import open_course
from web_fixtures import Page, serving

from lessonsearch.build import build_index
from lessonsearch.searcher import Searcher


def places(response) -> list[tuple[str, str | None]]:
    return [(hit.lesson, hit.anchor) for hit in response.results]


# --- On the sample course -------------------------------------------------------------------


def test_warmup_finds_the_warm_up_the_course_hyphenates(sample_searcher) -> None:
    """It found nothing and suggested nothing: "up" is a stop word, and a word was never cut
    at one ("upon" is no "up on"), but the course writes "warm-up"."""
    response = sample_searcher.search("warmup")
    assert response.suggestion == "warm-up"
    hyphenated = sample_searcher.search("warm-up")
    assert places(response) == places(hyphenated)
    assert places(response)[:1] == [("pretraining-and-loss", "how-the-weights-change")]
    assert response.results[0].snippet == hyphenated.results[0].snippet
    assert "<mark>warm</mark>-<mark>up</mark>" in response.results[0].snippet  # the word whole


@pytest.mark.parametrize(("query", "suggestion", "as_written"), [
    ("pre-training", "pretraining", "pretraining"),
    ("Pre-training loss", "Pretraining loss", "pretraining loss"),
    ("soft-max", "softmax", "softmax"),
    ("cache -pre-training", "cache -pretraining", "cache -pretraining"),
])
def test_a_hyphenated_word_the_course_writes_joined_says_what_was_searched(
        sample_searcher, query, suggestion, as_written) -> None:
    """"pre-training" was searched both ways and found the sections that write pretraining,
    with no word of it, where "subnetmask" and "kvcache" say "Showing results for": no
    section writes the two parts apart (the glossary names the term so), so the results are
    the one word's."""
    response = sample_searcher.search(query, 50)
    assert (response.suggestion, response.suggestion_searched) == (suggestion, True)
    assert set(places(response)) == set(places(sample_searcher.search(as_written, 50)))
    assert response.related == ()


@pytest.mark.parametrize("query", ["pre-training", "Pre-training"])
def test_a_hyphenated_word_searched_as_one_marks_the_one_word_not_its_parts(
        sample_searcher, query) -> None:
    """The results said "Showing results for pretraining" and marked "training" alone ("…
    longest stage of <mark>training</mark> fixes that …"), a word not searched on its own,
    with the snippet drawn around it; they mark what `pretraining` marks."""
    response = sample_searcher.search(query)
    assert response.suggestion_searched
    assert not any("<mark>training</mark>" in hit.snippet or "<mark>pre</mark>" in hit.snippet
                   for hit in response.results)
    assert "<mark>pretraining</mark>" in response.results[0].snippet
    both = sample_searcher.search(f"{query} training")  # a part typed apart is marked
    assert any("<mark>training</mark>" in hit.snippet for hit in both.results)


def test_the_api_and_the_page_say_a_hyphenated_word_was_searched_as_one(sample_index) -> None:
    """Through the web app: the API's body names the one word searched, and the page says
    "Showing results for" it, as for "kvcache", with no "Did you mean"."""
    with serving(sample_index) as client:
        body = client.get("/api/search", query_string={"q": "pre-training"}).get_json()
        assert (body["suggestion"], body["suggestion_searched"]) == ("pretraining", True)
        assert body["related"] == []
        assert body["total"] == 9  # not the base models, through "pretrained model"
        page = Page(client.get("/search", query_string={"q": "pre-training"})
                    .get_data(as_text=True))
        assert "Showing results for “ pretraining ”." in page.text
        assert "Did you mean" not in page.text
        assert "/search?q=pretraining" in page.links()


def test_a_joined_word_no_lesson_writes_hyphenated_is_searched_as_the_term_it_names(
        sample_searcher) -> None:
    """"selfattention": the glossary names attention "self-attention" too, but no lesson
    writes it, hyphenated or not, so the sections shown are attention's, and the notice
    says so (not "Showing results for self-attention", which no section writes)."""
    response = sample_searcher.search("selfattention")
    assert response.related == (("selfattention", "attention"),)
    assert response.suggestion is None
    assert response.total == sample_searcher.search("attention").total


def test_a_hyphenated_name_and_number_finds_the_one_word_the_course_writes(
        sample_searcher) -> None:
    """"GPT-2" found nothing: the course writes gpt2 (in code), and only a hyphenated word of
    letters alone was searched as one word."""
    response = sample_searcher.search("GPT-2")
    assert ("tokens-and-tokenizers", "seeing-tokens-in-code") in places(response)
    assert places(response) == places(sample_searcher.search("gpt2"))


def test_a_hyphenated_word_no_section_writes_counts_its_parts_among_most_words(
        sample_searcher) -> None:
    """The course writes neither "multi-head" nor "multihead", but its section on many
    heads is what the reader wants: it was fifth, by "attention" alone."""
    response = sample_searcher.search("multi-head attention")
    assert response.relaxed
    assert places(response)[0] == ("attention", "many-heads-at-once")


@pytest.mark.parametrize("query", ["what does a p-value mean?", "p-value", "P-value", "x-ray"])
def test_a_hyphenated_word_of_a_letter_and_a_word_is_not_searched_as_the_word_alone(
        sample_searcher, query) -> None:
    """The course never writes p-value, but "what does a p-value mean?" said "No results …;
    showing results for value." with the card for attention's value, and "p-value" showed
    that card over the sections writing "value" or the letter p: a p-value is no value of
    attention. A word whose parts but one are single letters finds nothing, and names no
    term by its remaining part."""
    response = sample_searcher.search(query)
    assert (response.total, response.results) == (0, ())
    assert response.terms == () and response.related == ()
    assert response.suggestion is None


@pytest.mark.parametrize(("query", "card", "first"), [
    ("multi-head", "attention head", ("attention", "many-heads-at-once")),  # two topical parts
    ("top-p", "nucleus sampling", ("sampling-strategies", "top-k-and-top-p")),  # written so
    ("self-attention", "attention", ("attention", "why-words-need-each-other")),
])
def test_a_hyphenated_word_of_two_words_still_names_its_parts(sample_searcher, query, card,
                                                              first) -> None:
    response = sample_searcher.search(query)
    assert [t.term for t in response.terms][:1] == [card]
    assert places(response)[0] == first


def test_a_term_named_with_a_letter_is_still_found_whole(tmp_path) -> None:
    """A course whose glossary defines "p-value" names it for "p-value", not value."""
    lessons = {"01-tests.md": "---\ntitle: Tests\n---\n\n## Reading a test\n\nA small p-value "
               "says the data would be rare if nothing were going on. The value of a coin is "
               "its face.\n"}
    glossary = {"glossary.md": "p-value {#p-value}\n: How rare data as extreme would be if "
                "nothing were going on.\n\nvalue {#value}\n: What a coin is worth.\n"}
    with open_course(tmp_path, lessons, glossary) as searcher:
        response = searcher.search("what does a p-value mean?")
        assert [t.term for t in response.terms] == ["p-value"]
        assert places(response) == [("tests", "reading-a-test")]


def test_a_word_joined_by_an_at_sign_is_searched_as_the_phrase_of_its_parts(
        sample_searcher) -> None:
    """``pass@1`` searched the words pass and 1 apart: the sections that pass something
    came first, and the one that writes pass@1 third."""
    response = sample_searcher.search("pass@1")
    assert places(response) == [("evaluation-and-benchmarks", "kinds-of-test")]
    assert places(response) == places(sample_searcher.search('"pass 1"'))


# --- On a course of our own -----------------------------------------------------------------


TRAINING = """---
title: Training notes
---

## Schedules

Most runs begin with a short warm-up at a small learning rate, then decay it. The setup
of a run also fixes its batch size.

## Layers

Every layer runs multi-head attention: several heads read the sequence side by side.

## Tokenizers

Load the gpt2 tokenizer once and reuse it for every batch.

## Models

The GPT-3 model read far more text than the one before it.

## Evaluation

Code benchmarks report pass@1, the share of problems the first sample solves, Q&A style.

## Data

One pass over the data is an epoch, and 1 epoch is common for the largest runs. Keep the
flag up on the server, and the pass rate high. Each q in the code is a query.
"""


@pytest.fixture(scope="module")
def training(tmp_path_factory: pytest.TempPathFactory):
    lessons = tmp_path_factory.mktemp("training") / "lessons"
    lessons.mkdir()
    (lessons / "01-notes.md").write_text(TRAINING, encoding="utf-8")
    build_index(lessons, None, lessons.parent / "index")
    opened = Searcher.open(lessons.parent / "index")
    yield opened
    opened.close()


@pytest.mark.parametrize(("query", "suggestion", "as_written", "found"), [
    ("warmup", "warm-up", "warm-up", "schedules"),  # cut at a stop word: hyphenated
    ("Warmup schedule", "Warm-up schedule", "warm-up schedule", "schedules"),
    ("multihead", "multi-head", "multi-head", "layers"),
    ("gpt3", "GPT-3", "GPT-3", "models"),  # a name and its number, as the course writes it
])
def test_a_word_the_course_writes_hyphenated_is_searched_and_suggested_so(
        training, query, suggestion, as_written, found) -> None:
    response = training.search(query)
    assert response.suggestion == suggestion
    assert places(response) == places(training.search(as_written))
    assert places(response) == [("notes", found)]


def test_a_hyphenated_word_the_lessons_write_gets_no_notice(sample_searcher) -> None:
    """The lessons write "fine-tuning"; "finetuning" only the glossary writes, as another
    name of the term, and the index holds it for every section that mentions the term: the
    reader's spelling is the course's, and nothing is said of the other."""
    response = sample_searcher.search("fine-tuning")
    assert (response.suggestion, response.suggestion_searched) == (None, False)
    assert response.total > 0


def test_a_hyphenated_word_the_course_writes_both_ways_gets_no_notice(tmp_path) -> None:
    """A course that writes "fine-tuning" in one section and "finetuning" in another: the
    reader's spelling is the course's too, the results are both, and nothing is corrected."""
    lessons = {"01-tuning.md": "# Tuning\n\n## Prose\n\nFine-tuning adapts a trained model."
               "\n\n## Code\n\nThe finetuning script reads a small data set.\n"}
    with open_course(tmp_path, lessons) as searcher:
        response = searcher.search("fine-tuning")
        assert (response.suggestion, response.suggestion_searched) == (None, False)
        assert sorted(places(response)) == [("tuning", "code"), ("tuning", "prose")]


def test_a_word_is_cut_at_a_stop_word_only_where_the_course_hyphenates_the_two(
        training) -> None:
    """The course writes "up on" and "flag up" side by side, never hyphenated: "upon" and
    "flagup" are left alone, while "warmup" is warm-up."""
    assert training.search("warmup").suggestion == "warm-up"
    for query in ("upon", "flagup"):
        response = training.search(query)
        assert (response.suggestion, response.total) == (None, 0)


def test_a_word_a_lesson_title_hyphenates_at_a_stop_word_is_cut_there(tmp_path) -> None:
    """"pourover" found nothing and suggested nothing: the course hyphenates "pour-over" only
    in a lesson's title and a heading, and the two words were looked for in its text."""
    lessons = {"01-pour.md": "# Pour-over brewing\n\n## Wetting the grounds\n\nPour a little "
               "water over the grounds and wait half a minute before you pour the rest.\n\n"
               "## Pour-over or immersion?\n\nA cone drains as you pour; a jar holds the "
               "water until you press.\n"}
    with open_course(tmp_path, lessons) as searcher:
        response = searcher.search("pourover")
        assert (response.suggestion, response.suggestion_searched) == ("pour-over", True)
        assert places(response) == places(searcher.search("pour-over"))
        assert response.total == 2


def test_a_hyphenated_name_and_number_finds_the_course_s_spelling(training) -> None:
    """"GPT-2" is gpt2, which the course writes (and the reader is told so, in their case);
    "gpt-3" is still GPT-3 as written, and needs no notice."""
    for query, found, suggestion in (("GPT-2", "tokenizers", "GPT2"),
                                     ("gpt-3", "models", None)):
        response = training.search(query)
        assert places(response) == [("notes", found)]
        assert response.suggestion == suggestion
        assert response.suggestion_searched == (suggestion is not None)


def test_a_name_and_a_number_no_section_writes_still_finds_the_name(training) -> None:
    """"gpt-5": the number is no letter beside the name, which is still searched alone."""
    response = training.search("gpt-5")
    assert response.relaxed and places(response) == [("notes", "models")]


@pytest.mark.parametrize(("query", "found"), [
    ("pass@1", "evaluation"),
    ("Q&A", "evaluation"),
])
def test_a_word_joined_by_a_symbol_finds_the_section_that_writes_it(training, query,
                                                                    found) -> None:
    """The Data section writes pass and 1, and q: apart, the words matched it too."""
    assert places(training.search(query)) == [("notes", found)]


def test_a_hyphenated_number_and_letter_is_one_word_but_a_range_is_not(tmp_path) -> None:
    """"3-D" is the 3D the course writes; "3-5" is no 35."""
    lessons = {"01-sizes.md": "---\ntitle: Sizes\n---\n\n## Batches\n\nA batch of 35 "
               "examples.\n\n## Plots\n\nDraw the loss as a 3D surface.\n\n"
               "## Steps\n\nTake 3 steps, then 5 more.\n"}
    with open_course(tmp_path, lessons) as searcher:
        assert places(searcher.search("3-D")) == [("sizes", "plots")]
        assert searcher.search("3-5").total == 0


@pytest.mark.parametrize("query", ["480F", "230c", "200g rye"])
def test_a_number_joined_to_its_unit_finds_them_written_apart(tmp_path, query):
    """A course writes "480 °F" and "200 g"; a reader types "480F", which found nothing. It
    is searched apart, unsaid: "Showing results for 480 F" read as a spelling correction."""
    lessons = {"01-oven.md": "---\ntitle: The oven\n---\n\n## How hot\n\nBake the loaf at "
               "230 °C (480 °F) for twenty minutes.\n\n## Rye\n\nMix 200 g rye with the "
               "water.\n\n## Timing\n\nA loaf of rye bakes for an hour.\n"}
    with open_course(tmp_path, lessons) as searcher:
        found = searcher.search(query)
    assert found.suggestion is None and not found.suggestion_searched
    assert found.results and found.results[0].anchor == (
        "rye" if "rye" in query else "how-hot")


LEDGER = {"01-ledgers.md": """# Keeping the accounts

## Closing the month

Most bookkeepers close the month on its first working day, once every receipt is in.

## Bookkeeping by hand

A paper ledger still teaches bookkeeping best: each sale is written once as money in and
once as stock out.

## Where the receipts go

Keep each receipt in the order it came, and file the receipt book by month.

## Notes

A note book by the till holds the day's questions; the notebook on the shelf holds the
answers. Write a note in the note book before you close.
"""}


def test_two_words_the_course_writes_as_one_are_searched_and_suggested_so(tmp_path) -> None:
    """"book keeping" found every section writing "book" and "keep" (the receipt book) and
    none of the bookkeepers: neither word is a stop word, so the hyphen join never asked.
    The course writes the two as one word in two sections and side by side in none: the
    one word is searched, and the reader is told, as for "over proofed". Not "note book",
    which it writes as one word once and as two as often: the reader's words are its own."""
    with open_course(tmp_path, LEDGER) as searcher:
        response = searcher.search("book keeping")
        assert (response.suggestion, response.suggestion_searched) == ("bookkeeping", True)
        assert sorted(places(response)) == [("ledgers", "bookkeeping-by-hand"),
                                            ("ledgers", "closing-the-month")]
        assert places(response) == places(searcher.search("bookkeeping"))
        assert "<mark>bookkeepers</mark>" in response.results[0].snippet + \
            response.results[1].snippet
        both = searcher.search("Book keeping by hand")
        assert both.suggestion == "Bookkeeping by hand"
        apart = searcher.search("note book")  # "notebook" once, "note book" as often
        assert (apart.suggestion, apart.suggestion_searched) == (None, False)
        assert places(apart) == [("ledgers", "notes")]

