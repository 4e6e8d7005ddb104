"""The JSON API through Flask's test client: bodies, parameters, errors, caching and CORS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from urllib.parse import unquote

import pytest
from web_fixtures import build, copy_course, health_until, serving

from lessonsearch import responses
from lessonsearch.index_store import current_version_name
from lessonsearch.search_log import read_zero_results
from lessonsearch.searcher import Searcher
from lessonsearch.web import Settings, create_app


@pytest.fixture
def client(tiny_index: Path):
    with serving(tiny_index) as client:
        yield client


def as_json(body: object) -> object:
    """What a body looks like after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(body))


# --- Bodies: exactly what the CLI prints --------------------------------------------------


def test_search_returns_the_cli_body(client, tiny_index: Path):
    with closing(Searcher.open(tiny_index)) as searcher:
        expected = responses.search_body(searcher.search("token", 5, 1))
    got = client.get("/api/search?q=token&limit=5")
    assert got.status_code == 200
    assert got.mimetype == "application/json"
    assert got.get_json() == as_json(expected)
    assert got.get_json()["total"] > 0


def test_terms_and_term_return_the_cli_bodies(client, tiny_index: Path):
    with closing(Searcher.open(tiny_index)) as searcher:
        glossary = searcher.glossary
        forms = searcher.term_forms()
    assert client.get("/api/terms").get_json() == as_json(
        responses.terms_body(glossary.records, forms))
    kv = client.get("/api/terms/KV cache").get_json()
    assert kv == as_json(responses.term_body(glossary.with_mentions(glossary.look_up("KV cache"))))
    assert len(kv["mentions"]) == glossary.look_up("KV cache").mention_sections > 1


FORMS_GLOSSARY = """learning rate
: How far one step of training moves the weights.

warm start
: Training that begins from weights saved by an earlier run.

checkpoint
: The weights saved partway through a run.

KV cache
: The keys and values kept from earlier tokens.

Make
: A build tool that runs the rules whose inputs changed.
"""
FORMS_LESSON = """# Training runs

## Rates

Two learning rates were tried. The rate halved each epoch, and a rating of the runs came
later.

## Caches

KV caches grow with the prompt. Nothing was cached on disk: we saved a checkpoint, then two
checkpoints more, and started the next run from a warm start.

## Builds

It makes no difference which run goes first, as Make reads the rules.
"""


def test_forms_are_the_phrases_the_lessons_write_in_the_case_the_server_counts(tmp_path):
    """A form is listed only where a lesson writes it whole: the lesson writes "rating",
    "cached" and "started", but never "learning rating", "KV cached" or "warm started".
    Nor is "Makes" listed for the build tool Make, which only a capitalised word mentions:
    the lesson writes "makes" as a verb, and the server counts no mention there."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "glossary").mkdir()
    (tmp_path / "lessons" / "01-runs.md").write_text(FORMS_LESSON, encoding="utf-8")
    (tmp_path / "glossary" / "glossary.md").write_text(FORMS_GLOSSARY, encoding="utf-8")
    build(tmp_path, tmp_path / "index")
    with serving(tmp_path / "index") as client:
        terms = client.get("/api/terms").get_json()["terms"]
    assert {t["term"]: t["forms"] for t in terms} == {
        "checkpoint": ["checkpoints"],
        "KV cache": ["KV caches"],
        "learning rate": ["learning rates"],
        "Make": [],
        "warm start": [],
    }
    assert {t["term"]: t["mentions"] for t in terms}["Make"] == 1  # "makes" is no mention


def test_terms_are_listed_a_to_z(client):
    names = [t["term"] for t in client.get("/api/terms").get_json()["terms"]]
    assert names == sorted(names, key=str.lower)
    assert {"token", "KV cache", "temperature", "vocabulary"} <= set(names)


@pytest.mark.parametrize("spelling", ["key-value cache", "kv-cache", "KV-cache", "kv cache"])
def test_a_term_is_found_by_any_spelling(client, spelling):
    got = client.get(f"/api/terms/{spelling}")
    assert got.status_code == 200
    assert got.get_json()["term"] == "KV cache"


LANGUAGES = """
C
: A small systems language.

C++
: C with classes and templates.

C#
: A managed language for the .NET runtime.
"""


def test_terms_that_differ_only_in_a_language_symbol_stay_apart(tmp_path: Path):
    course = copy_course(tmp_path / "course")
    with (course / "glossary" / "glossary.md").open("a", encoding="utf-8") as glossary:
        glossary.write(LANGUAGES)
    (course / "lessons" / "05-languages.md").write_text(
        "---\ntitle: Languages\nslug: languages\n---\n\n## Three of them\n\n"
        "We write C++ and C and C#, then C++ again.\n", encoding="utf-8")
    build(course, tmp_path / "index")
    with serving(tmp_path / "index") as client:
        for name, term, anchor, count in [("C", "C", "c", 1), ("C%2B%2B", "C++", "c-plus-plus", 2),
                                          ("c-plus-plus", "C++", "c-plus-plus", 2),
                                          ("C%23", "C#", "c-sharp", 1),
                                          ("c%23", "C#", "c-sharp", 1)]:
            got = client.get(f"/api/terms/{name}").get_json()
            assert (got["term"], got["anchor"], got["mention_count"]) == (term, anchor, count)
        page = client.get("/glossary/C%23").get_data(as_text=True)
        assert "A managed language" in page and "C with classes" not in page
        for query, term in [("C%23", "C#"), ("C%2B%2B", "C%2B%2B"), ("C%23+runtime", "C#")]:
            found = client.get(f"/api/search?q={query}").get_json()  # the search's term card
            assert [t["term"] for t in found["terms"]][:1] == [unquote(term)], query


README = Path(__file__).resolve().parent.parent / "README.md"


def readme_term_example() -> dict:
    """The ``lessonsearch term NAME --json`` example in README.md, parsed."""
    return readme_example('{"term": "KV cache", "aliases"')


def readme_example(opening: str) -> dict:
    """The JSON example in README.md that starts with ``opening``, parsed."""
    text = README.read_text(encoding="utf-8")
    start = text.index(opening)
    return json.loads(text[start:text.index("```", start)])


def agrees(example: object, real: object) -> bool:
    """Whether ``real`` is what ``example`` shows: "…" ends a shortened string, a shortened
    list shows its first items."""
    if isinstance(example, str) and "…" in example:
        return isinstance(real, str) and real.startswith(example.split("…")[0].rstrip())
    if isinstance(example, dict):
        return (isinstance(real, dict) and example.keys() == real.keys()
                and all(agrees(v, real[k]) for k, v in example.items()))
    if isinstance(example, list) and example and isinstance(example[0], dict):
        return isinstance(real, list) and all(map(agrees, example, real))
    return example == real


def test_the_readme_search_example_is_what_the_sample_course_answers(sample_index: Path):
    with serving(sample_index) as client:
        real = client.get("/api/search?q=kv cache").get_json()
    assert agrees(readme_example('{"query": "kv cache"'), real), real["results"][0]


def test_the_readme_term_example_is_what_the_sample_course_answers(sample_index: Path):
    with serving(sample_index) as client:
        real = client.get("/api/terms/key-value cache").get_json()
    example = readme_term_example()
    assert example["aliases"] == real["aliases"]
    assert agrees(example, real), (example, real)


def test_an_unknown_term_is_a_404_with_suggestions(client):
    got = client.get("/api/terms/tokne")
    assert got.status_code == 404
    body = got.get_json()
    assert set(body) == {"error", "suggestions"}
    assert "tokne" in body["error"]
    assert "token" in body["suggestions"]


def test_a_name_far_longer_than_any_term_is_unknown_without_suggestions(client):
    """Reading a name as a spelling of a term, and comparing it with every term for
    suggestions, costs time in proportion to its length: a 60 KB name (Flask's development
    server reads request lines up to 64 KB) took 5-8 s against the sample course's 59 terms,
    a 10 MB one 8 minutes. Such a name is read as written only."""
    name = " ".join(["token"] * 10_000)
    got = client.get(f"/api/terms/{name}")
    assert got.status_code == 404
    assert got.get_json()["suggestions"] == []
    page = client.get(f"/glossary/{name}")
    assert page.status_code == 404
    assert "/glossary/token" not in page.get_data(as_text=True)
    assert client.get("/api/terms/token").status_code == 200


STUB = "\nbeam search\n:\n"
"""A glossary entry an editor started: a term line above an empty ``:``."""


def test_a_glossary_stub_is_a_term_with_no_definition_yet_not_an_unknown_name(tmp_path: Path):
    """A stub is left out of the glossary readers see, but a lookup by its name said "No term
    named 'beam search'", as for a typo, while the glossary writes it."""
    course = copy_course(tmp_path / "course")
    glossary = course / "glossary" / "glossary.md"
    line = len(glossary.read_text(encoding="utf-8").splitlines()) + 2  # after the blank line
    with glossary.open("a", encoding="utf-8") as written:
        written.write(STUB)
    build(course, tmp_path / "index")
    with serving(tmp_path / "index") as client:
        for name in ("beam search", "beam-search", "Beam searches"):
            got = client.get(f"/api/terms/{name}")
            assert got.status_code == 404, name
            body = got.get_json()
            assert body == {
                "error": "'beam search' is in the glossary but has no definition yet "
                         f"(written at glossary/glossary.md:{line}).",
                "suggestions": [],
                "no_definition_yet": {"term": "beam search",
                                      "written_at": f"glossary/glossary.md:{line}"},
            }, name
        page = client.get("/glossary/beam-search")
        assert page.status_code == 404
        text = page.get_data(as_text=True)
        assert "“beam search” is in the glossary but has no definition yet." in text
        assert "No term named" not in text
        unknown = client.get("/api/terms/beam searching").get_json()  # no spelling of it
        assert unknown["error"].startswith("No term named") and "no_definition_yet" not in unknown


def test_lessons_come_from_the_manifest_in_course_order(client, tiny_index: Path):
    body = client.get("/api/lessons").get_json()
    assert [x["slug"] for x in body["lessons"]] == ["tokens", "sampling", "kv-cache", "notes"]
    first = body["lessons"][0]
    assert first == {
        "slug": "tokens", "title": "Tokens and vocabularies",
        "url": "https://courses.example.test/tiny/tokens", "module": "basics",
        "position": 1, "minutes": 8, "sections": first["sections"],
    }
    assert first["sections"] >= 4
    assert body["course"]["title"] == "A Tiny Course on Models"
    assert [m["slug"] for m in body["modules"]] == ["basics", "memory"]


def test_lesson_positions_never_repeat_and_follow_the_order(tmp_path: Path):
    """A lesson at position 0 comes first; the plain-text lessons, which give no position,
    are numbered by their place in the course file, not pushed onto the next lesson's."""
    course = copy_course(tmp_path / "course")
    lessons = course / "lessons"
    (lessons / "00-welcome.md").write_text(
        "---\ntitle: Welcome\nposition: 0\n---\n\n## Before you start\n\nNothing to install.\n",
        encoding="utf-8")
    (lessons / "05-recap.md").write_text(
        "---\ntitle: Recap\nposition: 5\n---\n\n## Looking back\n\nWhat the course covered.\n",
        encoding="utf-8")
    build(course, tmp_path / "index")
    with serving(tmp_path / "index") as client:
        body = client.get("/api/lessons").get_json()
    assert [(x["slug"], x["position"]) for x in body["lessons"]] == [
        ("welcome", 0), ("tokens", 1), ("sampling", 2), ("kv-cache", 3), ("notes", 4),
        ("recap", 5)]


def test_healthz_names_the_live_version(client, tiny_index: Path):
    body = client.get("/healthz").get_json()
    assert body["status"] == "ok"
    assert body["version"] == current_version_name(tiny_index)
    assert body["built_at"].endswith("Z")
    assert body["counts"]["lessons"] == 4
    assert body["counts"]["terms"] >= 4


# --- Search behaviour, seen through the API -----------------------------------------------


def search(client, query: str, **params) -> dict:
    got = client.get("/api/search", query_string={"q": query, **params})
    assert got.status_code == 200, got.get_json()
    return got.get_json()


def test_filters_by_lesson_and_by_module(client):
    everywhere = search(client, "token")
    assert len({hit["lesson"] for hit in everywhere["results"]}) > 1
    in_lesson = search(client, "token", lesson="kv-cache")
    assert in_lesson["results"]
    assert {hit["lesson"] for hit in in_lesson["results"]} == {"kv-cache"}
    in_module = search(client, "token", module="memory")
    assert in_module["results"]
    assert {hit["module"] for hit in in_module["results"]} == {"memory"}


@pytest.mark.parametrize("params, said", [
    ({"lesson": "nope"}, "No lesson 'nope' in this course"),
    ({"module": "nope"}, "No module 'nope' in this course"),
    ({"lesson": "kv-cache", "module": "nope"}, "No module 'nope'"),
])
def test_an_unknown_filter_is_a_400_not_an_empty_result(client, params, said):
    got = client.get("/api/search", query_string={"q": "token", **params})
    assert got.status_code == 400
    body = got.get_json()
    assert list(body) == ["error"]
    assert body["error"].startswith(said)
    assert "/api/lessons" in body["error"]


def test_an_empty_filter_means_no_filter(client):
    """What the page's form sends for "All lessons" and "All modules"."""
    everywhere = search(client, "token")["total"]
    assert search(client, "token", lesson="", module="")["total"] == everywhere


def test_a_phrase_matches_only_the_words_in_order(client):
    assert search(client, "tokens earlier")["total"] >= 1
    assert search(client, '"earlier tokens"')["total"] >= 1
    assert search(client, '"tokens earlier"')["total"] == 0


def test_minus_excludes_a_word(client):
    with_word = search(client, "token")
    without = search(client, "token -vocabulary")
    assert without["total"] < with_word["total"]
    assert not any("vocabulary" in hit["snippet"].lower() for hit in without["results"])


def test_every_word_required_then_relaxed_when_nothing_has_them_all(client):
    strict = search(client, "token cache")
    assert not strict["relaxed"]
    relaxed = search(client, "zebra token cache")
    assert relaxed["relaxed"]
    assert relaxed["results"]


def test_a_misspelt_word_gets_a_suggestion(client):
    assert search(client, "temprature")["suggestion"] == "temperature"


def test_a_long_word_two_slips_away_is_searched_as_the_courses_word(client):
    body = search(client, "tempreture")  # a letter dropped and two swapped
    assert body["suggestion"] == "temperature"
    assert body["results"] == search(client, "temperature")["results"]
    assert body["results"][0]["lesson"] == "sampling"
    assert search(client, "sentanse")["suggestion"] is None  # "sentence": written twice only


def test_a_query_naming_a_term_returns_its_card(client):
    body = search(client, "how big is the KV cache")
    assert [t["term"] for t in body["terms"]] == ["KV cache"]
    assert search(client, "tokens")["terms"][0]["glossary_anchor"] == "token"


@pytest.mark.parametrize("query", ['"unclosed phrase', "token AND", "(token OR", "NOT", "- token",
                                   "token ) ( ::", "AND OR NOT", "OR"])
def test_malformed_syntax_never_fails(client, query):
    got = client.get("/api/search", query_string={"q": query})
    assert got.status_code == 200
    assert got.get_json()["query"]


def test_one_result_per_section(client):
    body = search(client, "token", limit=50)
    urls = [hit["url"] for hit in body["results"]]
    assert len(urls) == len(set(urls))


# --- Parameters -----------------------------------------------------------------------------


def test_limit_is_capped_at_50(client):
    assert search(client, "token", limit=500)["limit"] == 50


def test_pages_split_the_results(client):
    everything = search(client, "token", limit=50)
    assert everything["total"] >= 4
    first = search(client, "token", limit=2, page=1)
    second = search(client, "token", limit=2, page=2)
    assert second["page"] == 2
    assert [h["url"] for h in first["results"] + second["results"]] == [
        h["url"] for h in everything["results"][:4]
    ]


def test_a_page_after_the_last_is_empty(client):
    total = search(client, "token", limit=50)["total"]
    past = search(client, "token", limit=2, page=total)  # pages of 2: page `total` is past
    assert past["total"] == total
    assert past["results"] == []


def test_a_query_over_the_word_limit_searches_its_first_64_saying_so(client):
    """A pasted paragraph of 65 to 85 words was refused with a 400; its first 64 words and
    phrases are searched, and ``left_out`` says the rest were not, naming an exclusion and a
    phrase among them (sections with -token are not left out)."""
    whole = search(client, "token " * 64)
    assert whole["left_out"] is None and whole["total"]
    for query, written, excluded, phrases, among in [
        ("token " * 64 + "zebra", 65, 0, 0, ""),
        ("token " * 64 + 'zebra -token "the model"', 67, 1, 1,
         ", among them 1 to exclude and 1 phrase"),
    ]:
        body = search(client, query)
        assert body["results"] == whole["results"] and body["total"] == whole["total"]
        assert body["left_out"] == {
            "searched": 64, "written": written, "excluded": excluded, "phrases": phrases,
            "error": None,
            "notice": f"Searched the first 64 words and phrases of {written}; the rest were "
                      f"left out{among}."}


@pytest.mark.parametrize("params, word", [
    ({"q": ""}, "empty"),
    ({"q": "   "}, "empty"),
    ({}, "empty"),
    ({"q": "token " * 700}, "the limit is 4096"),
    ({"q": "-model"}, "only excludes"),
    ({"q": " ".join([f"-w{n}" for n in range(64)] + ["token"])},
     "only excludes words in its first 64 words and phrases of 65, the ones searched"),
    ({"q": " ".join(f'"the {w}"' for w in "abcdefghi")}, "Too many phrases: the query has 9"),
    ({"q": " ".join(f'"the {w}"' for w in "abcdefghi"), "typing": "1"}, "at most 8"),
    ({"q": "?"}, "The query has no word to search for (?): type one or more words"),
    ({"q": '""', "typing": "1"}, "no word to search for"),
    ({"q": "token", "limit": "ten"}, "limit"),
    ({"q": "token", "limit": "0"}, "limit"),
    ({"q": "token", "limit": "-3"}, "limit"),
    ({"q": "token", "page": "0"}, "page"),
    ({"q": "token", "page": "2.5"}, "page"),
    ({"q": "token", "page": "1001"}, "page"),
    ({"q": "token", "limit": ""}, "limit"),
    ({"q": "token", "limit": " 5"}, "limit"),
    ({"q": "token", "page": "2 "}, "page"),
    ({"q": "token", "typing": "yes"}, "typing"),
])
def test_bad_parameters_are_a_400_in_the_one_error_shape(client, params, word):
    got = client.get("/api/search", query_string=params)
    assert got.status_code == 400
    body = got.get_json()
    assert list(body) == ["error"]
    assert word in body["error"]


def test_a_pasted_paragraph_of_many_hyphenated_words_is_answered(client):
    """It was refused as "Too many phrases", though it quoted none: past 8 phrases a word
    of several parts is searched as its words."""
    pasted = ("I tried the step-by-step set-up for the command-line tools with a built-in, "
              "pre-installed, read-only, up-to-date, well-known, open-source, cross-platform "
              "text editor but the cache fails")
    got = client.get("/api/search", query_string={"q": pasted})
    assert got.status_code == 200, got.get_json()
    assert got.get_json()["total"] > 0


def test_only_the_search_boxs_word_being_typed_is_completed(client):
    """The search box sends typing=1 while the reader types: "temperatu" is temperature. A
    submitted search's last word is whole: completing it took "stand" to "standard"."""
    typed = client.get("/api/search", query_string={"q": "temperatu", "typing": "1"})
    assert typed.get_json()["suggestion"] == "temperature"
    assert typed.get_json()["total"] > 0
    for params in ({"q": "temper"}, {"q": "temper", "typing": "0"}):
        assert client.get("/api/search", query_string=params).get_json()["suggestion"] is None



def test_only_a_submitted_search_that_finds_nothing_is_logged(tmp_path: Path):
    """Each keystroke in the search box is a typing=1 search: typing "qwertzu" listed "q",
    "qw", "qwe" … as searches that found nothing on the editors' coverage page."""
    index_dir = tmp_path / "index"
    build(copy_course(tmp_path / "course"), index_dir)
    with serving(index_dir) as client:
        for end in range(1, 8):
            typed = client.get("/api/search", query_string={"q": "qwertzu"[:end], "typing": "1"})
            assert typed.get_json()["total"] == 0
        assert read_zero_results(index_dir) == ()
        for typing in ("0", None):
            query = {"q": "qwertzu", "typing": typing} if typing else {"q": "qwertzu"}
            assert client.get("/api/search", query_string=query).get_json()["total"] == 0
    assert [(z.query, z.count) for z in read_zero_results(index_dir)] == [("qwertzu", 2)]


def test_a_search_with_no_word_in_it_is_refused_and_not_logged(tmp_path: Path):
    """``?``, ``()``, ``""`` or ``-`` alone find nothing in any course: listed as searches that
    found nothing, they filled the editors' backlog of missing words with punctuation. They
    are refused as the empty query is, saying why; ``OR`` alone is the word or, which this
    course never writes, and is listed as any word the course lacks."""
    index_dir = tmp_path / "index"
    build(copy_course(tmp_path / "course"), index_dir)
    with serving(index_dir) as client:
        for query in ("?", "()", '""', "-", "... ?"):
            got = client.get("/api/search", query_string={"q": query})
            assert got.status_code == 400
            assert got.get_json() == {"error": f"The query has no word to search for ({query}): "
                                               "type one or more words, as in: KV cache."}
            assert client.get("/search", query_string={"q": query}).status_code == 400
        for query in ("OR", "zwieback"):
            assert client.get("/api/search", query_string={"q": query}).get_json()["total"] == 0
            assert client.get("/search", query_string={"q": query}).status_code == 200
        coverage = client.get("/api/coverage").get_json()
    # Equal counts are listed latest first: the two may fall in different seconds.
    assert sorted((z.query, z.count) for z in read_zero_results(index_dir)) == [
        ("OR", 2), ("zwieback", 2)]
    assert sorted(z["query"] for z in coverage["zero_result_searches"]) == ["OR", "zwieback"]


def test_a_logged_search_the_course_answers_now_leaves_the_backlog(tmp_path: Path):
    """An editor who wrote the missing word saw the search still listed as finding nothing:
    the report asks the live version again, and lists only what it still does not answer.
    The log keeps every line, so a word the course stops answering is listed again."""
    course, index_dir = copy_course(tmp_path / "course"), tmp_path / "index"
    build(course, index_dir)
    notes = course / "lessons" / "04-notes.txt"
    original = notes.read_text(encoding="utf-8")
    with serving(index_dir) as client:
        for query in ("moe router", "moe router", "speculative decoding"):
            assert client.get("/api/search", query_string={"q": query}).get_json()["total"] == 0
        backlog = client.get("/api/coverage").get_json()["zero_result_searches"]
        assert [(z["query"], z["count"]) for z in backlog] == [
            ("moe router", 2), ("speculative decoding", 1)]
        notes.write_text(original + "\nA MoE router sends each token to a few experts.\n",
                         encoding="utf-8")
        answering = build(course, index_dir)
        health_until(client, lambda body: body["version"] == answering)
        assert client.get("/api/search", query_string={"q": "moe router"}).get_json()["total"]
        body = client.get("/api/coverage").get_json()
        assert [z["query"] for z in body["zero_result_searches"]] == ["speculative decoding"]
        assert body["summary"]["zero_result_searches"] == 1
        page = client.get("/coverage").get_data(as_text=True)
        assert "speculative decoding" in page and "moe router" not in page
        notes.write_text(original, encoding="utf-8")  # the answer taken out again
        unanswering = build(course, index_dir)
        health_until(client, lambda body: body["version"] == unanswering)
        backlog = client.get("/api/coverage").get_json()["zero_result_searches"]
        assert [(z["query"], z["count"]) for z in backlog] == [
            ("moe router", 2), ("speculative decoding", 1)]


# --- Suggest ---------------------------------------------------------------------------------


def suggest(client, prefix: str) -> list[dict]:
    got = client.get("/api/suggest", query_string={"q": prefix})
    assert got.status_code == 200
    body = got.get_json()
    assert body["query"] == prefix.strip()
    return body["suggestions"]


def test_suggest_lists_terms_then_lessons_then_headings(client):
    found = suggest(client, "tok")
    kinds = [s["kind"] for s in found]
    assert kinds == sorted(kinds, key=["term", "lesson", "heading"].index)
    assert found[0] == {"text": "token", "kind": "term", "url": "/glossary/token",
                        "matched": None}
    assert {"text": "Tokens and vocabularies", "kind": "lesson",
            "url": "https://courses.example.test/tiny/tokens", "matched": None} in found
    headings = [s for s in found if s["kind"] == "heading"]
    assert {"text": "What is a token?", "kind": "heading",
            "url": "https://courses.example.test/tiny/tokens#what-is-a-token",
            "matched": None} in headings


def test_suggest_ignores_case_and_matches_word_starts(client):
    assert suggest(client, "TOK") == suggest(client, "tok")
    texts = [s["text"] for s in suggest(client, "cache")]
    assert texts[:2] == ["KV cache", "The KV cache"]
    assert "Memory grows" in [s["text"] for s in suggest(client, "grow")]
    assert "Memory grows" not in [s["text"] for s in suggest(client, "rows")]


@pytest.mark.parametrize(("typed", "text"), [
    ("what is", "What is a language model?"), ("what is a", "What is a language model?"),
    ("What is a lang", "What is a language model?"), ("what i", "What is a language model?"),
    ("what i", "What it is not"), ("when does", "When does it stop?"),
    ("why such", "Why such a simple task teaches so much"),
    ("where", "Where it goes wrong"), ("where", "Where the course goes next"),
    ("a few", "A few words first"), ("how", "How far should the model move?"),
    ("the", "The KV cache"), ("the", "The generation loop")])
def test_a_text_is_completed_by_its_first_words_function_words_too(sample_index, typed, text):
    """A reader typing a heading or title from its start is offered it, whatever its first
    words are: "what is" offered nothing while "what i" offered "What it is not"."""
    with serving(sample_index) as client:
        assert text in [s["text"] for s in suggest(client, typed)]


def test_a_function_word_inside_a_text_completes_it_only_once_typed_past(sample_index):
    """Inside a text, a word start that is a function word needs the prefix to go past it:
    "fo" is no "A machine for continuing text", "the" no "Where the course goes next"."""
    with serving(sample_index) as client:
        assert "A machine for continuing text" not in [s["text"] for s in suggest(client, "fo")]
        assert "A machine for continuing text" in [s["text"] for s in suggest(client, "for c")]
        the = [s["text"] for s in suggest(client, "the")]
        assert "Where the course goes next" not in the
        assert "Where the course goes next" in [
            s["text"] for s in suggest(client, "the cou")]


def test_suggest_finds_a_term_by_its_alias_and_says_which(client):
    """A reader typing "key-val" is offered "KV cache" and should see why."""
    first = suggest(client, "key-val")[0]
    assert (first["text"], first["matched"]) == ("KV cache", "key-value cache")
    assert suggest(client, "kv")[0]["matched"] is None  # its own name explains it
    assert suggest(client, "cache")[0]["matched"] is None  # a word of its name, too


def test_suggest_gives_at_most_ten_and_nothing_for_no_match(client):
    assert len(suggest(client, "t")) <= 10
    assert suggest(client, "qqqq") == []


def test_a_suggested_term_url_opens_its_page(client):
    url = suggest(client, "temp")[0]["url"]
    assert client.get(url).status_code == 200


def test_suggest_needs_a_query(client):
    got = client.get("/api/suggest?q=")
    assert got.status_code == 400
    assert "error" in got.get_json()


@pytest.mark.parametrize("sent", ["%C2%94", "%20", "%09%0A", "%00%1B"])
def test_suggest_has_no_completions_for_spaces_or_control_characters(client, sent):
    """A q the OpenAPI document allows (any text of one character or more) that holds no
    visible character was a 400, "The query is empty": a search box asks as the reader
    types, and such text has nothing to complete."""
    got = client.get(f"/api/suggest?q={sent}")
    assert got.status_code == 200
    assert got.get_json() == {"query": "", "suggestions": []}
    got = client.get(f"/opensearch/suggestions?q={sent}")
    assert got.status_code == 200
    assert json.loads(got.data) == [unquote(sent), []]  # q as sent, as the convention echoes


# --- Errors ---------------------------------------------------------------------------------


def test_unknown_api_routes_answer_json(client):
    got = client.get("/api/nothing-here")
    assert got.status_code == 404
    assert got.mimetype == "application/json"
    assert list(got.get_json()) == ["error"]


@pytest.mark.parametrize("url", ["/api", "/api/nothing-here", "/api/search/"])
def test_unknown_api_routes_answer_json_with_or_without_a_slash(client, url):
    got = client.get(url)
    assert got.status_code == 404
    assert got.mimetype == "application/json"
    assert "Content-Security-Policy" not in got.headers


def test_opensearch_suggestions_show_a_text_once_whatever_its_case(tmp_path: Path):
    """The address bar shows text alone: the term "temperature" and a lesson titled
    "Temperature" read as one suggestion twice."""
    course = copy_course(tmp_path / "course")
    (course / "lessons" / "05-temperature.md").write_text(
        "---\ntitle: Temperature\nslug: temperature\n---\n\n## TEMPERATURE\n\n"
        "Dividing the scores spreads the choices.\n", encoding="utf-8")
    build(course, tmp_path / "index")
    with serving(tmp_path / "index") as client:
        kinds = [(s["text"], s["kind"]) for s in
                 client.get("/api/suggest?q=temp").get_json()["suggestions"]]
        query, texts = json.loads(client.get("/opensearch/suggestions?q=temp").data)
    assert {("temperature", "term"), ("Temperature", "lesson"),
            ("TEMPERATURE", "heading")} <= set(kinds)  # the widget labels each kind
    assert query == "temp"
    assert texts == [text for text, _ in kinds if text not in ("Temperature", "TEMPERATURE")]
    assert texts[0] == "temperature"


@pytest.mark.parametrize("sent", ["te ", " kv", "kv  c", "KV\tcache", "Temp"])
def test_opensearch_suggestions_echo_the_query_as_sent(client, sent):
    """Firefox drops the suggestions when the first element differs from what the reader
    typed, spaces included: "te " was answered as "te". They are still the trimmed query's."""
    query, texts = json.loads(client.get("/opensearch/suggestions", query_string={"q": sent}).data)
    assert query == sent
    words = " ".join(sent.split())
    assert texts and texts == [s["text"] for s in client.get(
        "/api/suggest", query_string={"q": words}).get_json()["suggestions"]]

@pytest.mark.parametrize("url", ["/opensearch/suggestions", "/opensearch/suggestions?q="])
def test_opensearch_suggestions_refuse_an_empty_query_in_json(client, url):
    got = client.get(url)
    assert got.status_code == 400
    assert got.mimetype == "application/json"
    assert "empty" in got.get_json()["error"]


def test_a_wrong_method_is_a_json_405(client):
    got = client.post("/api/search?q=token")
    assert got.status_code == 405
    assert "GET" in got.headers["Allow"]
    assert list(got.get_json()) == ["error"]


@pytest.mark.parametrize(("url", "moved_to"), [
    ("/api/terms/%2Fetc%2Fhosts", "/api/terms/etc/hosts"),  # "//etc" is made one slash
    ("/api//search?q=token", "/api/search?q=token"),
])
def test_a_redirect_from_routing_answers_in_json_with_the_usual_headers(client, url, moved_to):
    """Werkzeug answered these with its HTML "Redirecting..." page, which a client reading
    every /api answer as JSON could not parse."""
    got = client.get(url, headers={"Origin": ORIGIN})
    assert got.status_code == 308
    assert got.mimetype == "application/json"
    assert got.get_json() == {"redirect": got.headers["Location"]}
    assert got.headers["Location"].endswith(moved_to)
    assert got.headers["Access-Control-Allow-Origin"] == "*"
    assert got.headers["X-Content-Type-Options"] == "nosniff"


def test_a_page_redirect_stays_a_page_redirect(client):
    got = client.get("/glossary/")
    assert got.status_code == 308
    assert got.mimetype == "text/html"


def test_an_unexpected_failure_is_a_json_500_in_the_same_shape(tmp_path: Path):
    app = create_app(Settings(index_dir=tmp_path))

    def broken():
        raise RuntimeError("a bug")

    app.add_url_rule("/api/broken", "broken", broken)
    got = app.test_client().get("/api/broken")
    assert got.status_code == 500
    assert list(got.get_json()) == ["error"]
    assert "a bug" not in got.get_json()["error"]


def test_no_index_is_a_503_not_a_crash(tmp_path: Path):
    with serving(tmp_path / "missing") as client:
        for url in ("/api/search?q=token", "/healthz", "/api/terms", "/api/suggest?q=t"):
            got = client.get(url)
            assert got.status_code == 503, url
            assert got.get_json()["error"].startswith("Index not built: run `lessonsearch index`")
            assert str(tmp_path) not in got.get_json()["error"]
            assert got.headers["Retry-After"]
        assert client.get("/api/openapi.json").status_code == 200


# --- Caching ----------------------------------------------------------------------------------


def test_etag_revalidates_to_304(client):
    first = client.get("/api/search?q=token")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get("/api/search?q=token", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    stale = client.get("/api/search?q=token", headers={"If-None-Match": '"something-else"'})
    assert stale.status_code == 200


ETAGGED = ("/api/search?q=token", "/api/terms", "/api/terms/vocabulary", "/api/lessons",
           "/api/suggest?q=to", "/glossary")


def test_etag_differs_by_query_and_route(client):
    tags = {
        client.get(url).headers["ETag"]
        for url in ("/api/search?q=token", "/api/search?q=cache", "/api/terms", "/api/lessons")
    }
    assert len(tags) == 4


def test_etag_changes_with_the_index_version_and_only_with_it(tmp_path: Path):
    """A rebuild that changes nothing keeps the live version, so every client's and CDN's
    copy stays good; a glossary entry edited is a new version, and new ETags."""
    course = copy_course(tmp_path / "course")
    index_dir = tmp_path / "index"
    build(course, index_dir)
    with serving(index_dir) as client:
        before = {url: client.get(url).headers["ETag"] for url in ETAGGED}
        build(course, index_dir)
        for url, etag in before.items():
            again = client.get(url, headers={"If-None-Match": etag})
            assert again.status_code == 304, url
        glossary = course / "glossary" / "glossary.md"
        text = glossary.read_text(encoding="utf-8")
        edited = text.replace("fixed list of every token", "fixed list of all the tokens")
        assert edited != text
        glossary.write_text(edited, encoding="utf-8")
        edited_version = build(course, index_dir)
        health_until(client, lambda body: body["version"] == edited_version)
        for url, etag in before.items():
            after = client.get(url, headers={"If-None-Match": etag})
            assert after.status_code == 200, url
            assert after.headers["ETag"] != etag


def test_errors_carry_no_etag(client):
    assert "ETag" not in client.get("/api/search?q=").headers


# --- CORS and security headers ---------------------------------------------------------------


ORIGIN = "https://other.example"


def test_cors_allows_every_origin_by_default(client):
    got = client.get("/api/search?q=token", headers={"Origin": ORIGIN})
    assert got.headers["Access-Control-Allow-Origin"] == "*"
    assert "Origin" in got.headers["Vary"]
    assert "ETag" in got.headers["Access-Control-Expose-Headers"]


def test_cors_follows_the_allow_list(tiny_index: Path):
    with serving(tiny_index, cors_origins=(ORIGIN,)) as client:
        allowed = client.get("/api/terms", headers={"Origin": ORIGIN})
        other = client.get("/api/terms", headers={"Origin": "https://evil.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Access-Control-Allow-Origin" not in other.headers
    assert "Origin" in other.headers["Vary"]


@pytest.mark.parametrize("configured", ["https://Other.Example", "HTTPS://other.example/",
                                        "https://other.example:443", " https://other.example "])
def test_configured_origins_are_compared_as_browsers_send_them(tiny_index: Path, configured):
    settings = Settings.from_env({"LESSONSEARCH_CORS_ORIGINS": f"https://a.example,{configured}"},
                                 index_dir=tiny_index)
    assert settings.cors_origins == ("https://a.example", ORIGIN)
    with serving(tiny_index, cors_origins=settings.cors_origins) as client:
        got = client.get("/api/terms", headers={"Origin": ORIGIN})
    assert got.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_an_origin_keeps_a_port_that_is_not_the_default():
    settings = Settings.from_env({}, cors_origins="http://Localhost:8000/, http://x.example:80")
    assert settings.cors_origins == ("http://localhost:8000", "http://x.example")



@pytest.mark.parametrize("configured", ["https://a.example https://b.example", "a.example",
                                        "*.example.org", "https://*.example.org", " , ",
                                        "https://a.example:99999"])
def test_an_allow_list_entry_that_is_no_origin_stops_the_server_saying_so(tmp_path: Path,
                                                                           configured):
    """Each was accepted and matched no origin: the sites meant to embed the search were
    refused, and nothing said why."""
    env = {**os.environ, "LESSONSEARCH_CORS_ORIGINS": configured}
    done = subprocess.run([sys.executable, "-m", "lessonsearch.cli", "serve", "--index",
                           str(tmp_path / "index"), "--port", "1"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("lessonsearch: LESSONSEARCH_CORS_ORIGINS")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("configured", ["ftp://x.example", "FILE:///srv/course/index.html",
                                        "file://x.example", "chrome-extension://abcdef"])
def test_an_origin_no_web_page_sends_stops_the_server_saying_so(tmp_path: Path, configured):
    """Each was accepted (or refused as no origin at all), though a page a browser loads from
    such a scheme sends no origin of it: only http:// and https:// pages call the API."""
    env = {**os.environ, "LESSONSEARCH_CORS_ORIGINS": f"https://a.example, {configured}"}
    done = subprocess.run([sys.executable, "-m", "lessonsearch.cli", "serve", "--index",
                           str(tmp_path / "index"), "--port", "1"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith(f"lessonsearch: LESSONSEARCH_CORS_ORIGINS: {configured!r} ")
    assert "origins must be http:// or https://" in done.stderr
    assert "Traceback" not in done.stderr

def test_cors_preflight_is_answered(client):
    got = client.options("/api/search", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
    })
    assert got.status_code == 200
    assert got.headers["Access-Control-Allow-Origin"] == "*"
    assert "GET" in got.headers["Access-Control-Allow-Methods"]
    assert "if-none-match" in got.headers["Access-Control-Allow-Headers"].lower()
    assert got.data == b""
    assert "Content-Type" not in got.headers  # an empty answer, not an HTML page
    assert "Content-Security-Policy" not in got.headers


def test_no_cors_on_pages(client):
    got = client.get("/search?q=token", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in got.headers


def test_the_box_script_may_be_pinned_from_another_site(tiny_index: Path):
    """``<script integrity=… crossorigin>`` makes the browser fetch the script in CORS
    mode: with no Access-Control-Allow-Origin on /static/ it refused to run it."""
    with serving(tiny_index, cors_origins=(ORIGIN,)) as client:
        with closing(client.get("/static/lessonsearch.js", headers={"Origin": ORIGIN})) as got:
            assert got.status_code == 200
            assert got.headers["Access-Control-Allow-Origin"] == ORIGIN
        with closing(client.get("/static/lessonsearch.js",
                                headers={"Origin": "https://evil.example"})) as got:
            assert "Access-Control-Allow-Origin" not in got.headers


def test_security_headers_on_json(client):
    got = client.get("/api/terms")
    assert got.headers["X-Content-Type-Options"] == "nosniff"
    assert got.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"


# --- Live reload, in process ------------------------------------------------------------------


def test_a_rebuilt_index_is_served_without_a_new_app(tmp_path: Path):
    course = copy_course(tmp_path / "course")
    index_dir = tmp_path / "index"
    first = build(course, index_dir)
    with serving(index_dir) as client:
        assert client.get("/healthz").get_json()["version"] == first
        assert search(client, "zephyrology")["total"] == 0

        (course / "lessons" / "05-zephyr.md").write_text(WINDS, encoding="utf-8")
        second = build(course, index_dir)
        assert health_until(client, lambda body: body["version"] == second)["version"] == second
        assert second != first
        assert [hit["lesson"] for hit in search(client, "zephyrology")["results"]] == ["winds"]
        assert "Winds" in [s["text"] for s in suggest(client, "win")]


def point_current_at(index_dir: Path, name: str) -> None:
    """Swap ``current`` to ``name`` as an operator does (``ln -sfn`` then ``mv -T``)."""
    pointer = index_dir / ".current.new"
    pointer.symlink_to(name)
    pointer.replace(index_dir / "current")


@pytest.mark.parametrize(("damage", "reason"), [
    ("manifest cut short", "It cannot be read: its manifest is damaged."),
    ("another format", "It was built by another version of lessonsearch."),
    ("no such folder", "It has no manifest: the folder is not there, or was not copied in "
                       "full."),
    ("no glossary file", "It cannot be read: its file glossary.sqlite is missing."),
])
def test_healthz_says_when_current_names_a_version_that_could_not_be_loaded(
        tmp_path: Path, damage: str, reason: str):
    """The server keeps answering from the version it has, so the health check stays 200, but
    an operator rolling out a new version sees that it failed, and why, without a path."""
    course = copy_course(tmp_path / "course")
    index_dir = tmp_path / "index"
    first = build(course, index_dir)
    with serving(index_dir) as client:
        assert client.get("/healthz").get_json()["not_loaded"] is None
        if damage == "no such folder":  # a typo in the name, or a copy not made yet
            newer = "v-20991231T000000000000-abcdef"
            point_current_at(index_dir, newer)
        else:
            newer = build(course, index_dir, full=True)
            manifest = index_dir / newer / "manifest.json"
            if damage == "manifest cut short":
                manifest.write_text(manifest.read_text()[:40])
            elif damage == "no glossary file":
                (index_dir / newer / "glossary.sqlite").unlink()
            else:
                manifest.write_text(json.dumps({**json.loads(manifest.read_text()),
                                                "format": 1}))
        health_until(client, lambda body: body["status"] == "warn")
        for _ in range(2):  # tried once, reported every time
            got = client.get("/healthz")
            assert got.status_code == 200
            assert got.get_json()["status"] == "warn"
            assert got.get_json()["version"] == first
            assert got.get_json()["not_loaded"] == {"version": newer, "reason": reason}
            assert str(tmp_path) not in got.get_data(as_text=True)
            assert "ETag" not in got.headers  # a 304 would hide the change
            assert search(client, "token")["total"] > 0

        point_current_at(index_dir, first)  # rolled back
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"], body["not_loaded"]) == ("ok", first, None)
        point_current_at(index_dir, newer)
        assert client.get("/healthz").get_json()["status"] == "warn"
        fixed = build(course, index_dir, full=True)  # rolled out again
        body = health_until(client, lambda body: body["version"] == fixed)
        assert (body["status"], body["version"], body["not_loaded"]) == ("ok", fixed, None)


@pytest.mark.parametrize("damage", ["manifest cut short", "no such folder"])
def test_a_worker_started_after_a_bad_rollout_serves_the_version_before(tmp_path: Path,
                                                                        damage: str):
    """A worker that starts while ``current`` names a version it cannot open (one that
    crashed and was replaced, or every worker after a reload) answered 503 to everything,
    while its siblings served the version they had. It serves the newest version that
    opens, older than the bad one, and says so on /healthz, as they do."""
    course = copy_course(tmp_path / "course")
    index_dir = tmp_path / "index"
    first = build(course, index_dir)
    second = build(course, index_dir, full=True)
    if damage == "manifest cut short":
        bad = build(course, index_dir, full=True)
        manifest = index_dir / bad / "manifest.json"
        manifest.write_text(manifest.read_text()[:40])
    else:
        bad = "v-20991231T000000000000-abcdef"
        point_current_at(index_dir, bad)
    with serving(index_dir) as client:  # a worker starting now
        assert search(client, "token")["total"] > 0
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("warn", second)
        assert body["not_loaded"]["version"] == bad
        point_current_at(index_dir, first)  # rolled back by hand
        assert health_until(client, lambda body: body["version"] == first)["version"] == first

def test_a_worker_behind_on_versions_moves_to_the_last_good_one(tmp_path: Path):
    """A worker still on the first version (no request had reached it since the second was
    published) kept the first when ``current`` went to a broken third, while a sibling that
    had opened the second served that: one replica, two answers. Every worker now serves the
    newest version that opens."""
    course = copy_course(tmp_path / "course")
    index_dir = tmp_path / "index"
    first = build(course, index_dir)
    with serving(index_dir) as client:
        assert client.get("/healthz").get_json()["version"] == first
        second = build(course, index_dir, full=True)  # published; this worker not told yet
        bad = build(course, index_dir, full=True)
        manifest = index_dir / bad / "manifest.json"
        manifest.write_text(manifest.read_text()[:40])
        body = health_until(client, lambda body: body["status"] == "warn")
        assert (body["status"], body["version"], body["not_loaded"]["version"]) == (
            "warn", second, bad)
        assert search(client, "token")["total"] > 0

def test_a_version_that_cannot_be_opened_is_logged_in_one_line_for_an_operator(
        tmp_path: Path, caplog):
    """The log gave a traceback and the build's advice ("Rebuild it: lessonsearch index
    --full --out …"), where a replica's operator copies the version again."""
    course = copy_course(tmp_path / "course")
    index_dir = tmp_path / "index"
    first = build(course, index_dir)
    with serving(index_dir) as client:
        assert search(client, "token")["total"] > 0
        bad = build(course, index_dir, full=True)
        manifest = index_dir / bad / "manifest.json"
        manifest.write_text(manifest.read_text()[:40])
        caplog.clear()
        assert search(client, "token")["total"] > 0
        health_until(client, lambda body: body["status"] == "warn")
        assert search(client, "token")["total"] > 0
    said = [r for r in caplog.records if "Cannot open index version" in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is None
    assert said[0].getMessage() == (
        f"Cannot open index version {bad}: It cannot be read: its manifest is damaged. "
        f"Serving {first}; copy the version again under a new name, or build one, and swap "
        "current.")

WINDS = "---\ntitle: Winds\nslug: winds\n---\n\n## Zephyrs\n\nZephyrology studies winds.\n"


def test_a_term_lists_as_many_mentions_as_asked_with_totals(client):
    whole = client.get("/api/terms/KV cache?mentions=10000").get_json()
    assert whole["mention_sections"] == len(whole["mentions"]) > 1
    assert whole["mention_count"] >= whole["mention_sections"]
    first = client.get("/api/terms/KV cache?mentions=1").get_json()
    assert first["mentions"] == whole["mentions"][:1]  # the first sections, in course order
    assert (first["mention_sections"], first["mention_count"]) == (
        whole["mention_sections"], whole["mention_count"])
    for bad in ("0", "-1", "two"):
        got = client.get(f"/api/terms/KV cache?mentions={bad}")
        assert got.status_code == 400 and "mentions" in got.get_json()["error"]
