"""The coverage report on courses bigger than a screen: per-lesson sums stored at build time,
lesson lists capped with their full counts, and strips of at most ``STRIP_BARS`` bars.

Every figure is checked against the computation the report made before ``term_lessons``
existed (every mention read and summed per lesson, below as ``per_mention``), on the sample
course and on a generated course of 126 lessons: more than the strip's bars and more than
the lessons listed by default.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from web_fixtures import Page, serving

from lessonsearch.build import build_index
from lessonsearch.cli import main
from lessonsearch.coverage import (
    LESSONS_SHOWN,
    MAX_LESSONS,
    STRIP_BARS,
    DefinedAt,
    coverage_report,
)
from lessonsearch.coverage_render import STRIP_STEP, strip
from lessonsearch.glossary_table import Place, load_glossary
from lessonsearch.index_store import current_version, read_manifest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from generate_course import generate  # noqa: E402

SECTIONS = 1000
"""125 lessons, and one more: past STRIP_BARS and past LESSONS_SHOWN, and still a build of
seconds."""
LAST_LESSON = """---
title: Words we used
position: 126
---

## Attention, at last

**Attention** is the step that weighs every earlier token by how well it matches.
"""
"""Defines a term the generated lessons before it use throughout."""


@pytest.fixture(scope="module")
def big_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("coverage-scale")
    generate(folder / "course", SECTIONS)
    (folder / "course" / "lessons" / "lesson-00126.md").write_text(LAST_LESSON, encoding="utf-8")
    build_index(folder / "course" / "lessons", folder / "course" / "glossary", folder / "index")
    return folder / "index"


@pytest.fixture(autouse=True)
def no_allow_file_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI and the app read ./coverage-allow.txt; run where there is none."""
    monkeypatch.chdir(tmp_path)


def per_mention(version_dir: Path) -> dict[str, dict]:
    """Each term's lessons, first mention, defining lesson and lessons used before it, as the
    report computed them before: from every mention row, summed per lesson in Python."""
    lessons = read_manifest(version_dir)["lessons"]
    position = {x["slug"]: number for number, x in enumerate(lessons, start=1)}
    found = {}
    for record in load_glossary(version_dir):
        per_lesson: dict[str, Place] = {}
        for m in record.mentions:
            seen = per_lesson.get(m.lesson)
            per_lesson[m.lesson] = Place(m.lesson, m.lesson_title, seen.url if seen else m.url,
                                         m.count + (seen.count if seen else 0))
        first = record.mentions[0] if record.mentions else None
        lesson_defs = sorted((d for d in record.definitions if d.origin == "lesson" and d.lesson),
                             key=lambda d: position.get(d.lesson or "", 0))
        defined = lesson_defs[0] if lesson_defs else None
        titles = {m.lesson: m.lesson_title for m in record.mentions}
        used = tuple(sorted(per_lesson.values(), key=lambda p: position.get(p.lesson, 0)))
        defined_at = DefinedAt(defined.lesson or "", titles.get(defined.lesson or "", ""),
                               defined.url or defined.source, defined.text) if defined else None
        found[record.term] = {
            "lessons": used,
            "first_mention": Place(first.lesson, first.lesson_title, first.url, first.count)
            if first else None,
            "defined_at": defined_at,
            "mentions": record.mention_count,
            "early": tuple(p for p in used if position[p.lesson] < position[defined_at.lesson])
            if defined_at else (),
        }
    return found


def assert_same_as_per_mention(index_dir: Path) -> None:
    version = current_version(index_dir)
    expected = per_mention(version)
    report = coverage_report(version, index_dir, shown=None)
    assert [t.term for t in report.terms] == list(expected)
    for t in report.terms:
        want = expected[t.term]
        got = {"lessons": t.lessons, "first_mention": t.first_mention,
               "defined_at": t.defined_at, "mentions": t.mentions}
        assert got == {k: want[k] for k in got}, t.term
        assert t.lesson_count == len(want["lessons"])
    assert {e.term: e.used_at for e in report.used_before_definition} == {
        term: want["early"] for term, want in expected.items() if want["early"]}
    assert all(e.used_count == len(e.used_at) for e in report.used_before_definition)


def test_the_sample_course_reports_what_every_mention_summed_gave(sample_index: Path):
    assert_same_as_per_mention(sample_index)


def test_a_generated_course_reports_what_every_mention_summed_gave(big_index: Path):
    assert_same_as_per_mention(big_index)
    report = coverage_report(current_version(big_index), big_index, shown=None)
    assert any(t.lesson_count > LESSONS_SHOWN for t in report.terms)  # the cap is exercised
    assert report.used_before_definition  # and the lessons used before a definition


def test_the_old_strip_is_drawn_unchanged_on_a_course_within_the_bars(sample_index: Path):
    """A bar per lesson at its place in the course, as the strip was drawn before bars were
    summed (the sample course has fewer lessons than ``STRIP_BARS``)."""
    version = current_version(sample_index)
    report = coverage_report(version, sample_index)
    assert len(report.lessons) <= STRIP_BARS
    expected = per_mention(version)
    drawn = 0
    for t in report.terms:
        uses = {p.lesson: p for p in expected[t.term]["lessons"]}
        most = max((p.count for p in uses.values()), default=1)
        defined = t.defined_at.lesson if t.defined_at else None
        cells = []
        for number, lesson in enumerate(report.lessons):
            place = uses.get(lesson.slug)
            if place is None and lesson.slug != defined:
                continue
            count = place.count if place else 0
            what = f"{count} mention{'s' if count != 1 else ''}"
            cells.append((number * STRIP_STEP, 3 + round(13 * count / most),
                          "def" if lesson.slug == defined else "hit",
                          f"{number + 1}. {lesson.title}: {what}"
                          + ("; defines it" if lesson.slug == defined else ""),
                          place.url if place else t.defined_at.url))
        assert [(c.x, c.height, c.css, c.title, c.url) for c in strip(report, t)] == cells
        drawn += len(cells)
    assert drawn > len(report.terms)


def test_past_the_bars_each_bar_sums_a_run_of_consecutive_lessons(big_index: Path):
    version = current_version(big_index)
    report = coverage_report(version, big_index)
    n = len(report.lessons)
    assert n > STRIP_BARS
    bar_of = [k * STRIP_BARS // n for k in range(n)]
    expected = per_mention(version)
    for t in report.terms:
        want: dict[int, list] = {}
        for p in expected[t.term]["lessons"]:
            number = next(k for k, x in enumerate(report.lessons) if x.slug == p.lesson)
            bar = want.setdefault(bar_of[number], [0, 0, p.url])
            bar[0] += 1
            bar[1] += p.count
        got = {s.bar: [s.lessons, s.count, s.url] for s in t.spread if s.lessons}
        assert got == want, t.term
        for s in t.spread:
            assert (s.first, s.last) == (bar_of.index(s.bar) + 1,
                                         n - bar_of[::-1].index(s.bar))
        if t.defined_at:
            k = next(k for k, x in enumerate(report.lessons) if x.slug == t.defined_at.lesson)
            assert [s.bar for s in t.spread if s.defines] == [bar_of[k]]


def test_the_page_draws_at_most_the_bars_on_a_long_course(big_index: Path):
    with serving(big_index) as client:
        got = client.get("/coverage")
        body = client.get("/api/coverage").get_json()
    assert got.status_code == 200
    html = got.get_data(as_text=True)
    page = Page(html)
    strips = page.find("svg", class_="strip")
    assert len(strips) == len(body["terms"])
    assert {s["width"] for s in strips} == {str(STRIP_BARS * STRIP_STEP)}
    rows = html.split("<tr data-kinds")[1:]
    busiest = max(body["terms"], key=lambda t: t["lesson_count"])
    row = next(r for r in rows if f'data-term="{busiest["term"].lower()}"' in r)
    bars = re.findall(r'<rect class="(?:hit|def)" x="(\d+)"', row)
    assert 0 < len(bars) <= STRIP_BARS
    assert max(int(x) for x in bars) < STRIP_BARS * STRIP_STEP
    titles = re.findall(r"<title>([^<]*)</title>", row)
    counts = [int(m) for title in titles for m in re.findall(r": (\d+) mentions?\b", title)]
    assert sum(counts) == busiest["mentions"]  # every mention is in some bar
    assert re.match(r"1–2\. ", titles[0])  # 126 lessons in 64 bars: two to a bar at first
    assert f"Mentioned in {busiest['lesson_count']} of 126 lessons" in row


def test_the_api_lists_the_first_lessons_with_the_full_count(big_index: Path):
    full = coverage_report(current_version(big_index), big_index, shown=None)
    everything = {t.term: t for t in full.terms}
    with serving(big_index) as client:
        default = client.get("/api/coverage").get_json()
        three = client.get("/api/coverage?lessons=3").get_json()
        most = client.get(f"/api/coverage?lessons={MAX_LESSONS * 10}").get_json()
    for body, shown in ((default, LESSONS_SHOWN), (three, 3), (most, MAX_LESSONS)):
        for term in body["terms"]:
            t = everything[term["term"]]
            assert term["lesson_count"] == t.lesson_count
            assert [p["lesson"] for p in term["lessons"]] == \
                [p.lesson for p in t.lessons[:shown]]
        for entry in body["used_before_definition"]:
            early = next(e for e in full.used_before_definition if e.term == entry["term"])
            assert entry["used_count"] == len(early.used_at)
            assert [p["url"] for p in entry["used_at"]] == [p.url for p in early.used_at[:shown]]
        assert body["summary"] == default["summary"]
    assert any(len(t["lessons"]) < t["lesson_count"] for t in default["terms"])
    assert "spread" not in default["terms"][0]


@pytest.mark.parametrize("value", ["0", "-1", "abc", "2.5", "١٢"])
def test_a_bad_lessons_parameter_is_a_400(big_index: Path, value: str):
    with serving(big_index) as client:
        got = client.get("/api/coverage", query_string={"lessons": value})
    assert got.status_code == 400
    assert "lessons" in got.get_json()["error"]


def test_the_cli_takes_the_same_cap_and_lists_everything_on_request(
        big_index: Path, capsys: pytest.CaptureFixture):
    with serving(big_index) as client:
        api = client.get("/api/coverage?lessons=3").get_json()
    assert main(["coverage", "--index", str(big_index), "--format", "json",
                 "--lessons", "3"]) == 0
    assert json.loads(capsys.readouterr().out) == api
    assert main(["coverage", "--index", str(big_index), "--format", "json",
                 "--lessons", "all"]) == 0
    every = json.loads(capsys.readouterr().out)
    assert all(len(t["lessons"]) == t["lesson_count"] for t in every["terms"])


def test_the_table_counts_every_lesson_and_says_how_many_more_were_used_early(
        big_index: Path, capsys: pytest.CaptureFixture):
    report = coverage_report(current_version(big_index), big_index, shown=2)
    assert main(["coverage", "--index", str(big_index), "--lessons", "2"]) == 0
    table = capsys.readouterr().out
    busiest = max(report.terms, key=lambda t: t.lesson_count)
    assert re.search(rf"\n{re.escape(busiest.term)} .* {busiest.lesson_count} +\S+\n", table)
    entry = next(e for e in report.used_before_definition if e.used_count > 2)
    more = entry.used_count - 2
    assert f"used in {entry.used_at[0].lesson}, {entry.used_at[1].lesson} and {more} more " \
           f"lessons before {entry.defined_at.lesson} defines it" in table
    with serving(big_index) as client:
        page = client.get("/coverage?lessons=2").get_data(as_text=True)
    assert f"and {more} more lessons" in page


@pytest.fixture(scope="module")
def big_service(big_index: Path):
    from browser_support import serve_app

    with serve_app(big_index) as url:
        yield url


TABLE_BOUNDS = """() => {
  const box = document.querySelector(".table-scroll").getBoundingClientRect();
  const cells = [...document.querySelectorAll("table.coverage-terms thead th")];
  const first = cells[0].getBoundingClientRect(), last = cells.at(-1).getBoundingClientRect();
  return {boxLeft: box.left, boxRight: box.right, firstLeft: first.left,
          lastRight: last.right, viewport: document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("width", [1280, 1900])
def test_the_whole_table_is_in_view_on_a_long_course(browser, big_service: str, width: int):
    """The strip of 64 bars and a glossary path made the table 1,300 px wide in a box of
    1,152: the Problems column was off-screen even in a 1,900 px window."""
    from browser_support import open_tab

    tab = open_tab(browser, width=width)
    try:
        tab.page.goto(f"{big_service}/coverage")
        bounds = tab.page.evaluate(TABLE_BOUNDS)
    finally:
        tab.page.context.close()
    assert bounds["lastRight"] <= bounds["boxRight"] <= bounds["viewport"]
    assert tab.unexpected_errors() == []


def test_on_a_phone_the_table_scrolls_with_the_terms_in_view(browser, big_service: str):
    from browser_support import open_tab

    tab = open_tab(browser, width=375)
    try:
        tab.page.goto(f"{big_service}/coverage")
        tab.page.evaluate("document.querySelector('.table-scroll').scrollLeft = 10000")
        bounds = tab.page.evaluate(TABLE_BOUNDS)
        term = tab.page.locator("table.coverage-terms tbody th").first.bounding_box()
    finally:
        tab.page.context.close()
    # Scrolled to the end: scrollLeft is whole pixels, the table's width may not be.
    assert bounds["lastRight"] < bounds["boxRight"] + 1
    assert bounds["firstLeft"] == bounds["boxLeft"] == term["x"]  # the terms stay in view
