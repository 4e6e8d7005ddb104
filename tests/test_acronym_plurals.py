"""An acronym's plural is its singular (LLMs, GPUs, APIs), and a query that names a glossary
term never shows the term's card over "No sections match": a tester's `LLMs` and `topp`
found nothing under cards that said a lesson defines the term."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from web_fixtures import Page, serving

import lessonsearch
from lessonsearch.analysis import stems, words
from lessonsearch.build import build_index

WHAT_IS = ("what-is-a-language-model", "from-phone-keyboards-to-chat-assistants")
TOP_P = ("sampling-strategies", "top-k-and-top-p")


def test_an_acronyms_plural_written_in_capitals_is_its_singular() -> None:
    """Snowball keeps the s of "llms" (no vowel before it) and of "gpus" and "apis" (a vowel
    right before it). The capitals written say it is a plural; in lower case, or in capitals
    throughout, the word is read as it is: HTTPS is not HTTP's plural, nor bus a bu's."""
    plural = "LLMs GPUs APIs CPUs URLs IDs MP3s LLM's A100s"
    assert stems(plural) == stems("LLM GPU API CPU URL ID MP3 LLM A100")
    assert words(plural)[:3] == ["llm", "gpu", "api"]
    kept = "HTTPS DNS CMS GPS TLS Ms Is Us iOS PhDs bus gas yes its this ms cms https llms gpus"
    assert words(kept) == kept.lower().split()
    assert stems("HTTPS") != stems("HTTP") and stems("bus") != stems("bu")


def api_search(client, query: str, **params: str) -> dict:
    got = client.get("/api/search", query_string={"q": query, **params})
    assert got.status_code == 200, got.get_json()
    return got.get_json()


def places(body: dict) -> list[tuple[str, str]]:
    return [(hit["lesson"], hit["anchor"]) for hit in body["results"]]


@pytest.fixture(scope="module")
def sample_client(sample_index: Path):
    with serving(sample_index) as client:
        yield client


def test_llms_finds_the_lesson_that_writes_llm(sample_client) -> None:
    """The glossary lists LLMs as an alias of large language model, whose card showed with
    "Defined in the lesson" over "No sections match": the lesson writes LLM, never LLMs."""
    body = api_search(sample_client, "LLMs")
    assert [t["term"] for t in body["terms"]] == ["large language model"]
    assert places(body)[:1] == [WHAT_IS]
    assert (body["related"], body["suggestion"]) == ([], None)  # the same word: nothing to say
    assert "<mark>LLM</mark>" in body["results"][0]["snippet"]
    assert api_search(sample_client, "LLMs")["total"] == api_search(sample_client, "LLM")["total"]


@pytest.mark.parametrize("query", [
    "topp",  # the glossary's "top-p", its hyphen left out
    "what is topp?",
    "topp qqqzzz",  # no section has either word
])
def test_a_query_that_names_a_term_and_finds_nothing_finds_the_terms_sections(
        sample_client, query: str) -> None:
    """No section writes "topp", but it names nucleus sampling, whose card showed over "No
    sections match": the term's names are searched instead, and the page says so."""
    body = api_search(sample_client, query)
    assert [t["term"] for t in body["terms"]] == ["nucleus sampling"]
    assert body["related"] == [{"word": query, "searched": "nucleus sampling"}]
    by_name = api_search(sample_client, '"nucleus sampling" OR "top-p sampling" OR "top-p"')
    assert places(body) == places(by_name) and body["total"] == by_name["total"] > 0
    assert places(body)[0] == TOP_P
    assert "<mark>nucleus</mark> <mark>sampling</mark>" in body["results"][0]["snippet"]
    page = Page(sample_client.get("/search", query_string={"q": query}).get_data(as_text=True))
    assert f"No results for “{query}”; showing results for “nucleus sampling”." in page.text
    assert "No sections match" not in page.text


def test_the_terms_sections_keep_what_the_query_excludes_and_its_filter(sample_client) -> None:
    every = places(api_search(sample_client, "topp"))
    assert ("temperature", "choosing-a-setting") in every
    body = api_search(sample_client, "topp -temperature")
    assert body["related"] == [{"word": "topp -temperature", "searched": "nucleus sampling"}]
    assert places(body) == [p for p in every if p[0] != "temperature"
                            and p not in places(api_search(sample_client, "temperature"))]
    assert places(api_search(sample_client, "topp", lesson="temperature")) == [
        ("temperature", "choosing-a-setting")]
    found = api_search(sample_client, "top-p")  # it finds sections: searched as typed
    assert found["related"] == [] and found["total"] > 0
    quoted = api_search(sample_client, '"topp"')  # in quotes: written so, or nothing
    assert (quoted["total"], quoted["related"], len(quoted["terms"])) == (0, [], 1)


def test_the_command_line_says_which_term_it_searched(sample_index: Path) -> None:
    source = str(Path(lessonsearch.__file__).resolve().parents[1])  # this checkout's
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": source}
    done = subprocess.run(
        [sys.executable, "-m", "lessonsearch.cli", "search", "--index", str(sample_index),
         "topp"], env=env, capture_output=True, text=True, encoding="utf-8", timeout=120)
    shown = done.stdout
    assert done.returncode == 0, done.stderr
    assert "No results for topp; showing results for nucleus sampling." in shown
    assert "sampling-strategies#top-k-and-top-p" in shown.splitlines()[3]


@pytest.fixture(scope="module")
def hardware(tmp_path_factory: pytest.TempPathFactory):
    """A course that writes GPUs, never GPU; LLM, never LLMs; HTTPS in one lesson and HTTP
    in another. No glossary: what is found is found by the words."""
    lessons = tmp_path_factory.mktemp("hardware") / "lessons"
    lessons.mkdir()
    (lessons / "01-chips.md").write_text(
        "---\ntitle: Chips\nslug: chips\n---\n\n"
        "## Graphics cards\n\nTraining runs on GPUs, which multiply matrices quickly.\n\n"
        "## Models\n\nAn LLM is trained on one of them for weeks; the LLM then answers.\n",
        encoding="utf-8")
    (lessons / "02-web.md").write_text(
        "---\ntitle: The web\nslug: web\n---\n\n"
        "## Secure pages\n\nA page served over HTTPS is encrypted on the way.\n\n"
        "## Plain pages\n\nA page served over HTTP is not.\n\n"
        "## Getting there\n\nA bus takes you to the office.\n",
        encoding="utf-8")
    out = lessons.parent / "index"
    build_index(lessons, None, out)
    with serving(out) as client:
        yield client


FOUND = {
    "GPU": ([("chips", "graphics-cards")], []),  # the course's GPUs
    "gpu": ([("chips", "graphics-cards")], []),
    "gpus": ([("chips", "graphics-cards")], []),  # written so, in capitals: the same word
    "GPUs": ([("chips", "graphics-cards")], []),
    "LLMs": ([("chips", "models")], []),
    "llms": ([("chips", "models")], [{"word": "llms", "searched": "LLM"}]),  # never written
    "https": ([("web", "secure-pages")], []),  # an acronym that ends in S, no HTTP's plural
    "HTTP": ([("web", "plain-pages")], []),
    "bus": ([("web", "getting-there")], []),
}


def test_a_plural_finds_its_singular_and_no_other_word(hardware) -> None:
    """Each query with the sections it finds, and what the page says it searched instead."""
    found = {query: (places(body := api_search(hardware, query)), body["related"])
             for query in FOUND}
    assert found == FOUND
