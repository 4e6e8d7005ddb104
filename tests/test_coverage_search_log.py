"""The zero-result search log: appended without ever failing a search, read as counts."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

from lessonsearch import search_log
from lessonsearch.build import build_index
from lessonsearch.coverage import coverage_report
from lessonsearch.coverage_render import render_table
from lessonsearch.index_store import current_version
from lessonsearch.search_log import ZERO_RESULTS_LOG, read_zero_results, record_zero_result

COVERAGE_COURSE = Path(__file__).resolve().parent / "data" / "coverage"


def test_queries_are_counted_with_case_and_spacing_folded(tmp_path: Path):
    for query in ("sourdough", "Sourdough ", "rye  flour", "sourdough"):
        record_zero_result(tmp_path, query)
    found = read_zero_results(tmp_path)
    assert [(z.query, z.count) for z in found] == [("sourdough", 3), ("rye flour", 1)]
    assert found[0].last.endswith("Z")


def test_no_log_reads_as_nothing(tmp_path: Path):
    assert read_zero_results(tmp_path / "missing") == ()


def test_a_folder_that_cannot_be_written_is_said_once_and_searches_go_on(
        tmp_path: Path, monkeypatch, caplog):
    """A read-only or full index folder lost every line without a word."""
    monkeypatch.setattr(search_log, "_warned", False)
    record_zero_result(tmp_path / "no" / "such" / "folder", "anything")
    (tmp_path / ZERO_RESULTS_LOG).mkdir()  # opening a folder for writing fails too
    record_zero_result(tmp_path, "anything")
    said = [r.getMessage() for r in caplog.records if r.name == search_log.__name__]
    assert len(said) == 1
    assert said[0].startswith("Searches that find nothing are not recorded (No such file")


def test_torn_lines_are_skipped(tmp_path: Path):
    record_zero_result(tmp_path, "crumb")
    with open(tmp_path / ZERO_RESULTS_LOG, "a", encoding="utf-8") as log:
        log.write('{"query": "half a li\n[1, 2]\n')
    record_zero_result(tmp_path, "crumb")
    assert [(z.query, z.count) for z in read_zero_results(tmp_path)] == [("crumb", 2)]


def test_concurrent_writers_never_interleave_lines(tmp_path: Path):
    def write(word: str) -> None:
        for _ in range(50):
            record_zero_result(tmp_path, word * 40)

    threads = [threading.Thread(target=write, args=(w,)) for w in "abcd"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = (tmp_path / ZERO_RESULTS_LOG).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 200
    assert all(json.loads(line)["query"] in {w * 40 for w in "abcd"} for line in lines)


def test_the_log_stops_growing_at_its_cap(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(search_log, "MAX_LOG_BYTES", 100)
    for n in range(10):
        record_zero_result(tmp_path, f"query {n}")
    assert (tmp_path / ZERO_RESULTS_LOG).stat().st_size < 200


def test_control_characters_are_logged_as_spaces(tmp_path: Path):
    record_zero_result(tmp_path, "proof\x00ing\x1b[31m basket\x85")
    line = (tmp_path / ZERO_RESULTS_LOG).read_text(encoding="utf-8")
    assert json.loads(line)["query"] == "proof ing [31m basket"
    assert "\\u0000" not in line and "\\u001b" not in line


def test_control_characters_already_in_the_log_are_read_as_spaces(tmp_path: Path):
    record_zero_result(tmp_path, "proof ing")
    entry = {"query": "proof\x00ing\x7f", "at": "2026-01-01T00:00:00Z"}
    with open(tmp_path / ZERO_RESULTS_LOG, "a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")
        log.write(json.dumps({"query": "\x00\x01", "at": "2026-01-01T00:00:00Z"}) + "\n")
    assert [(z.query, z.count) for z in read_zero_results(tmp_path)] == [("proof ing", 2)]


def test_a_query_with_no_word_already_in_the_log_is_not_read(tmp_path: Path):
    """A log written before such queries were left out shows clean on the coverage page.
    An operator alone is searched as its word (``OR``: or), which a course may lack."""
    with open(tmp_path / ZERO_RESULTS_LOG, "a", encoding="utf-8") as log:
        for query in ("?", "()", "-", "-OR", "OR", "rusk"):
            log.write(json.dumps({"query": query, "at": "2026-01-01T00:00:00Z"}) + "\n")
    assert [(z.query, z.count) for z in read_zero_results(tmp_path)] == [
        ("OR", 1), ("rusk", 1)]


def test_the_queries_the_course_answers_now_are_left_out_and_few_are_asked(tmp_path: Path):
    """The report asks the live index about the queries it would list, most searched first,
    and no more than ``MAX_CHECKED`` of them: the log may hold thousands."""
    for n in range(search_log.MAX_CHECKED + 40):
        for _ in range(2 if n % 3 == 0 else 1):
            record_zero_result(tmp_path, f"crumb{n:04d}")
    asked: list[str] = []

    def answered(query: str) -> bool:
        asked.append(query)
        return query.endswith(("1", "3", "5", "7", "9"))  # the odd ones are written now

    found = read_zero_results(tmp_path, limit=10, answered=answered)
    assert [z.query for z in found] == [f"crumb{n:04d}" for n in range(0, 60, 6)]
    assert len(asked) < 25  # until ten were found unanswered
    asked.clear()
    assert read_zero_results(tmp_path, answered=lambda q: asked.append(q) or True) == ()
    assert len(asked) == search_log.MAX_CHECKED


def test_the_cli_report_leaves_out_a_query_the_course_answers_now(tmp_path: Path):
    """Without a server, the report opens the version to ask it, and only when the log
    holds a query to ask about."""
    course = Path(shutil.copytree(COVERAGE_COURSE, tmp_path / "course"))
    index = tmp_path / "index"
    build_index(course / "lessons", course / "glossary", index)
    for query in ("banneton", "banneton", "lame"):
        record_zero_result(index, query)
    report = coverage_report(current_version(index), index)
    assert [(z.query, z.count) for z in report.zero_result_searches] == [
        ("banneton", 2), ("lame", 1)]
    lesson = course / "lessons" / "03-shaping-and-baking.md"
    lesson.write_text(lesson.read_text(encoding="utf-8")
                      + "\nA banneton is the basket the shaped loaf proves in.\n",
                      encoding="utf-8")
    build_index(course / "lessons", course / "glossary", index)
    report = coverage_report(current_version(index), index)
    assert [z.query for z in report.zero_result_searches] == ["lame"]
    assert "1× banneton" not in render_table(report)
    assert [(z.query, z.count) for z in read_zero_results(index)] == [
        ("banneton", 2), ("lame", 1)]  # the log is as it was
