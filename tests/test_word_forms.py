"""A reader's word in another form than the course writes it: a hyphenated word typed
joined and inflected ("pourovers" for pour-over), a misspelt -ion noun of a verb the course
writes ("decission" where it writes decide), a hyphenated word no section writes whose one
topical part is searched ("in-context": context, and the reader is told). On courses of our
own."""

from __future__ import annotations

import pytest
from course_fixtures import built_course, open_course
from web_fixtures import Page, serving

from lessonsearch.searcher import Searcher


def places(response) -> list[tuple[str, str | None]]:
    return [(hit.lesson, hit.anchor) for hit in response.results]


BREWING = """---
title: Brewing
---

## Cones and filters

A pour-over drips through a paper filter into the cup, one cup at a time.

## Grind size

Grind finer for a pour-over than for a press: the water runs through faster.

## Bitter cups

Too fine a grind will over-extract the coffee. An over-extracted cup tastes bitter and
dry: the grounds sat too long in hot water.

## Choosing a method

Decide on a method before you buy a grinder. Most people decided by the taste they like,
and a few by the price.

## Sour cups

A sour cup is under-brewed: grind finer or pour more slowly.
"""


@pytest.fixture(scope="module")
def brewing(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("brewing")
    opened = Searcher.open(built_course(folder, {"01-brewing.md": BREWING}))
    yield opened
    opened.close()


# --- A hyphenated word typed joined, in another form -----------------------------------------


@pytest.mark.parametrize(("query", "suggestion", "as_written", "first"), [
    ("pourovers", "pour-overs", "pour-overs", "cones-and-filters"),
    ("Pourovers", "Pour-overs", "pour-overs", "cones-and-filters"),
    ("overextraction", "over-extraction", "over-extraction", "bitter-cups"),
    ("overextracting", "over-extracting", "over-extracting", "bitter-cups"),
    ("overextracts", "over-extracts", "over-extracts", "bitter-cups"),
    ("overextracted cup", "over-extracted cup", "over-extracted cup", "bitter-cups"),
])
def test_a_joined_word_in_another_form_finds_the_hyphenated_word(brewing, query, suggestion,
                                                                 as_written, first) -> None:
    """"pourover" was "Showing results for pour-over", but "pourovers" found nothing and
    suggested nothing: a word was cut into two only where the course writes each part as
    it is, and it writes "over" and "pour-over", never "overs" on its own. Nor
    "overextraction" where the course writes "over-extract" and "over-extracted"."""
    response = brewing.search(query)
    assert (response.suggestion, response.suggestion_searched) == (suggestion, True)
    assert places(response) == places(brewing.search(as_written))
    assert ("brewing", first) in places(response)


def test_a_joined_word_in_another_form_is_cut_at_a_stop_word_only_where_hyphenated(
        tmp_path) -> None:
    """A course that writes "pour over" side by side but never hyphenated: "pourovers" is
    not cut at the stop word's form, as "upon" is not "up on"."""
    lessons = {"01-water.md": "# Water\n\n## Pouring\n\nPour over the grounds in slow "
               "circles, then pour over the rim.\n"}
    with open_course(tmp_path, lessons) as searcher:
        for query in ("pourovers", "pourover"):
            response = searcher.search(query)
            assert (response.suggestion, response.total) == (None, 0)


KETTLE = {"01-kettle.md": """---
title: Kettle work
---

## Filling the cone

A pour-over drips through a paper filter into one cup. Pour the kettle over the grounds in
slow circles, let them bloom, then pour the rest; tip the cone over the sink when done.
"""}


@pytest.mark.parametrize("query", ["pourovers", "pourover", "pour-over", '"pour over"'])
def test_a_joined_word_marks_its_parts_side_by_side_not_alone(tmp_path, query: str) -> None:
    """"pourovers" is searched as pour-overs, the two side by side, and its snippet marked
    every "over" and "pour" of the passage too ("the kettle over the grounds", "tip the
    cone over"), as if each were searched alone; "pour-over" marked "pour" alone, its "over"
    (a stop word) never."""
    with open_course(tmp_path, KETTLE) as searcher:
        snippet = searcher.search(query).results[0].snippet
    assert "<mark>pour</mark>-<mark>over</mark>" in snippet
    assert snippet.count("<mark>") == 2


CABLES = {"01-cables.md": """---
title: Brake cables
---

## Fitting

Thread the new brake cable through the lever and clamp it at the caliper.

## Trimming

Trim the end so that two centimetres stick out, then crimp a cap on it so that the cable
does not fray.
"""}


def test_a_hyphenated_word_whose_parts_a_section_never_writes_together_marks_them_alone(
        tmp_path) -> None:
    """The lesson's title finds "Trimming" for `brake-cables`, as for `brake cables`; its
    text never writes the two side by side, and its snippet marked nothing at all, the
    section's first words shown bare, where `brake cables` marks its "cable"."""
    with open_course(tmp_path, CABLES) as searcher:
        hyphenated = {hit.anchor: hit.snippet for hit in searcher.search("brake-cables").results}
        apart = {hit.anchor: hit.snippet for hit in searcher.search("brake cables").results}
    assert "new <mark>brake</mark> <mark>cable</mark> through" in hyphenated["fitting"]
    assert "the <mark>cable</mark> does not fray" in hyphenated["trimming"]
    assert hyphenated["trimming"] == apart["trimming"]


SAUCES = {"01-sauces.md": """---
title: Sauces
---

## Reducing

Do not over-reduce the stock: an over-reduced sauce turns salty and sticky.

## Thickening

Flour thickens a sauce faster than reducing it, and tastes of little.
"""}


@pytest.mark.parametrize(("query", "suggestion"), [
    ("over-reduction", None),
    ("overreduction", "over-reduction"),
    ("overreductions", "over-reductions"),
])
def test_a_hyphenated_ion_noun_finds_its_verb_hyphenated(tmp_path, query, suggestion) -> None:
    """Snowball stems "reduction" apart from "reduce" (reduct, reduc): a word of the -ion
    family finds the other's sections, but a hyphenated one was searched as a phrase of its
    stems alone, and "over-reduction" found nothing where the course writes "over-reduce";
    nor was "overreduction" cut."""
    with open_course(tmp_path, SAUCES) as searcher:
        response = searcher.search(query)
        assert response.suggestion == suggestion
        assert places(response) == [("sauces", "reducing")]
        assert "<mark>over</mark>-<mark>reduced</mark>" in response.results[0].snippet


def test_a_hyphenated_word_the_course_writes_comes_before_its_family(tmp_path) -> None:
    lessons = {"01-sauces.md": SAUCES["01-sauces.md"] + "\n## Glaze\n\nA glaze is an "
               "over-reduction on purpose: the pan keeps a sticky film.\n"}
    with open_course(tmp_path, lessons) as searcher:
        assert places(searcher.search("over-reduction")) == [
            ("sauces", "glaze"), ("sauces", "reducing")]
        assert places(searcher.search("over-reduce")) == [
            ("sauces", "reducing"), ("sauces", "glaze")]
        assert places(searcher.search('"over-reduction"')) == [("sauces", "glaze")]


# --- A misspelt -ion noun of a verb the course writes ----------------------------------------


@pytest.mark.parametrize("query", ["decission", "decisoin", "decisin", "Decission"])
def test_a_misspelt_ion_noun_is_corrected_to_it_and_finds_its_verb(brewing, query) -> None:
    """The course writes "decide" and "decided", never "decision": "decision" finds the
    sections on deciding (its -ion family), but "decission" found nothing and suggested
    nothing, as a correction was looked for only among the words the course writes."""
    response = brewing.search(query)
    assert response.suggestion == ("Decision" if query[0].isupper() else "decision")
    assert response.suggestion_searched
    assert places(response) == places(brewing.search("decision"))
    assert places(response)[0] == ("brewing", "choosing-a-method")
    assert "<mark>Decide</mark>" in response.results[0].snippet


@pytest.mark.parametrize("query", ["decisions", "decision"])
def test_an_ion_noun_spelt_right_is_not_corrected(brewing, query) -> None:
    response = brewing.search(query)
    assert response.suggestion is None
    assert places(response)[0] == ("brewing", "choosing-a-method")


@pytest.mark.parametrize("query", ["derision", "decisive"])
def test_a_real_word_near_an_ion_noun_the_course_does_not_write_is_left_alone(
        brewing, query) -> None:
    """"derision" is one letter from decision, but an r for a c is no slip (keys apart):
    the noun is made by a rule, and a word is taken to it only by slips people make."""
    response = brewing.search(query)
    assert (response.suggestion, response.total) == (None, 0)


def test_a_real_word_is_still_not_corrected_to_a_course_word_two_edits_away(tmp_path) -> None:
    """"complex" is no slip of "complete", and the course's verbs' nouns change nothing."""
    lessons = {"01-tasks.md": "# Tasks\n\n## Finishing\n\nComplete each task and decide "
               "what comes next; completed tasks are decided.\n"}
    with open_course(tmp_path, lessons) as searcher:
        response = searcher.search("complex")
        assert (response.suggestion, response.total) == (None, 0)


# --- A hyphenated word no section writes, searched as its one topical part -------------------


PROMPTS = """---
title: Prompts
---

## Examples in the prompt

Put a few worked examples before the question: the model copies their form.

## The context window

The context holds the prompt and the reply, and a long context costs more.

## Heads

Each of the many heads reads the sequence its own way.

## Models

The gpt models read far more text than the ones before them.
"""


@pytest.fixture(scope="module")
def prompts(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("prompts")
    index = built_course(folder, {"01-prompts.md": PROMPTS})
    opened = Searcher.open(index)
    yield index, opened
    opened.close()


@pytest.mark.parametrize(("query", "shown", "first"), [
    ("in-context", ("in-context", "context"), "the-context-window"),
    ("In-Context", ("In-Context", "Context"), "the-context-window"),
    ("in-context window", ("in-context", "context"), "the-context-window"),
])
def test_a_hyphenated_word_no_section_writes_says_which_part_was_searched(prompts, query,
                                                                          shown, first) -> None:
    """"in-context" showed the sections on context with no word of why: no section writes
    "in-context" or "in context", and the stop word was left out. The results are still
    context's, and the reader is told: "No results for in-context; showing results for
    context"."""
    _, searcher = prompts
    response = searcher.search(query)
    assert response.related == (shown,)
    assert places(response)[0] == ("prompts", first)


def test_a_hyphenated_word_searched_as_its_one_part_is_told_once(prompts) -> None:
    """"in-context" alone said "showing results for context" and "No section has every word;
    showing sections with most of them", of a query of one word: the first says it all."""
    _, searcher = prompts
    response = searcher.search("in-context")
    assert response.related == (("in-context", "context"),) and not response.relaxed
    both = searcher.search("in-context window")  # window is a word of its own
    assert both.related == (("in-context", "context"),) and both.relaxed


ODDS = """# Odds

## Houses

The house was built of wood.

## Roads

The end of the road comes one step at a time.

## Shelves

The top shelf holds a box marked x.

## Models

The gpt models read text.
"""


@pytest.mark.parametrize(("query", "first"), [
    ("built-in", "houses"), ("end-to-end", "roads"), ("step-by-step", "roads"),
    ("top-5", "shelves"), ("x-5", "shelves"), ("GPT-5", "models"),
])
def test_no_notice_names_a_part_that_is_not_what_the_word_means(tmp_path, query,
                                                                 first) -> None:
    """"built-in" said "showing results for built", "end-to-end" "… for end", "top-5" "… for
    top", "x-5" "… for x": the part left is no topic the word is about (its first part, or
    one beside a number or letter left out). Only a stop word before a word ("in-context")
    is said so. The sections found are the same as before."""
    with open_course(tmp_path, {"01-odds.md": ODDS}) as searcher:
        response = searcher.search(query)
        assert response.related == () and response.relaxed
        assert places(response) == [("odds", first)]


def test_a_part_no_section_writes_is_not_said_to_be_searched(prompts) -> None:
    """"in-lining heads": "lining" is no word of the course, and the sections shown are
    those on heads, not on it."""
    _, searcher = prompts
    response = searcher.search("in-lining heads")
    assert response.related == () and response.relaxed
    assert places(response) == [("prompts", "heads")]


def test_a_hyphenated_word_of_two_topical_parts_needs_no_such_notice(prompts) -> None:
    """"multi-head": both parts are searched, each counted, as the relaxed notice says."""
    _, searcher = prompts
    response = searcher.search("multi-head")
    assert response.related == () and response.total > 0


def test_a_hyphenated_word_some_section_writes_needs_no_notice(tmp_path) -> None:
    lessons = {"01-reading.md": "# Reading\n\n## Words\n\nRead each word in context, and "
               "the context of a word in its sentence.\n"}
    with open_course(tmp_path, lessons) as searcher:
        response = searcher.search("in-context")
        assert response.related == () and not response.relaxed
        assert places(response) == [("reading", "words")]


def test_the_page_and_the_api_say_which_part_was_searched(prompts) -> None:
    index, _ = prompts
    with serving(index) as client:
        body = client.get("/api/search", query_string={"q": "in-context"}).get_json()
        assert body["related"] == [{"word": "in-context", "searched": "context"}]
        assert body["relaxed"] is False
        page = Page(client.get("/search", query_string={"q": "in-context"})
                    .get_data(as_text=True))
        assert "No results for “in-context”; showing results for “context”." in page.text
        assert "No section has every word" not in page.text  # one notice, not two
