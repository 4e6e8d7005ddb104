"""Random input never escapes as an unhandled exception: readers, query parser, searcher."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessonsearch.course import read_lesson_file
from lessonsearch.errors import BadQuery, LessonFormatError
from lessonsearch.query import names_words, only_excludes, parse_query
from lessonsearch.readers.json_export import read_json_lesson
from lessonsearch.readers.markdown import read_markdown_lesson
from lessonsearch.readers.plaintext import read_text_lesson
from lessonsearch.searcher import MAX_QUERY_CHARS, Searcher

FAST = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["lesson", "slug", "title", "reader", "blocks", "t",
                                       "runs", "text", "id", "body", "check", "options",
                                       "position", "module", "prev", "next", "course"]),
                      children, max_size=6),
    max_leaves=30,
)
markdownish = st.lists(
    st.sampled_from(list("#:-*`>|[](){}_~\n \t=abcXYZ123\"'“”") + ["```", "::::", "---\n"]),
    max_size=200,
).map("".join)


def _read_or_refuse(reader, text: str) -> None:
    try:
        lesson = reader(text, "fuzz")
    except LessonFormatError as exc:
        assert exc.path == "fuzz" and exc.reason
        return
    assert lesson.title.strip()
    for section in lesson.sections:
        assert section.anchor is None or section.anchor == section.anchor.strip()


@FAST
@given(json_values)
def test_json_reader_accepts_or_refuses_any_json(value):
    _read_or_refuse(read_json_lesson, json.dumps(value))


@FAST
@given(st.text(max_size=300))
def test_json_reader_accepts_or_refuses_any_text(text):
    _read_or_refuse(read_json_lesson, text)


@FAST
@given(st.text(st.characters(codec=None, categories=["Cs", "Ll", "Po", "So"]), max_size=20))
def test_a_json_export_never_hands_on_half_a_surrogate_pair(title):
    """JSON may escape any UTF-16 unit (``"\\ud800"``); what the reader hands on encodes as
    UTF-8 (a lone half is U+FFFD, a whole pair its one character, a backslash itself)."""
    text = json.dumps({"lesson": {"slug": "s", "title": f"T {title}"},
                       "body": {"text": f"## H\n\n{title}"}})
    lesson = read_json_lesson(text, "fuzz")
    lesson.title.encode("utf-8")
    assert lesson.title == "T " + title.encode("utf-16", "surrogatepass").decode(
        "utf-16", "replace")


@FAST
@given(markdownish)
def test_markdown_reader_accepts_or_refuses_markdownish_text(text):
    _read_or_refuse(read_markdown_lesson, text)


@FAST
@given(st.text(max_size=600))
def test_text_reader_accepts_or_refuses_any_text(text):
    _read_or_refuse(read_text_lesson, text)


@FAST
@given(st.binary(max_size=400), st.sampled_from([".json", ".md", ".txt"]))
def test_any_bytes_in_a_lesson_file(tmp_path_factory, raw, suffix):
    path = tmp_path_factory.mktemp("fuzz") / f"lesson{suffix}"
    path.write_bytes(raw)
    try:
        read_lesson_file(path, path.name)
    except LessonFormatError as exc:
        assert exc.path == path.name


@FAST
@given(st.text(max_size=200))
def test_query_parser_never_fails(text):
    parse_query(text)


@pytest.fixture(scope="module")
def tiny_searcher(tiny_index: Path):
    searcher = Searcher.open(tiny_index)
    yield searcher
    searcher.close()


@FAST
@given(st.lists(st.sampled_from(list('ab "()-*?~:^') + [" AND ", " OR ", " NOT ", "cache",
                                                       "token", "temprature"]),
                max_size=60).map("".join))
def test_search_answers_any_query_or_refuses_it(tiny_searcher, text):
    try:
        response = tiny_searcher.search(text)
    except BadQuery:
        assert (not text.split() or len(" ".join(text.split())) > MAX_QUERY_CHARS
                or only_excludes(text) or not names_words(text))
        return
    assert response.total >= len(response.results)


@pytest.mark.parametrize("query", [
    "(" * 5000 + "cache" + ")" * 5000,
    " ".join(f"word{i}" for i in range(3000)),
    "*", "* * *", "?", '"', "NOT NOT NOT", "-cache -token",
])
def test_hostile_queries_answer_with_results_or_a_clear_refusal(tiny_searcher, query):
    try:
        response = tiny_searcher.search(query)
    except BadQuery as exc:
        assert any(said in str(exc) for said in (str(MAX_QUERY_CHARS), "only excludes",
                                                 "no word to search"))
    else:
        assert response.total >= 0
