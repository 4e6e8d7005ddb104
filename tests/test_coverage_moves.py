"""Broken anchors across a move of the lessons' links: a new base URL or slug is no breakage.

The coverage course (``tests/data/coverage``) is built at its course file's base URL, then at
another one: every lesson's link moved, and no section went.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import lessonsearch
from lessonsearch.build import build_index
from lessonsearch.coverage import LinksMoved, coverage_report
from lessonsearch.coverage_allow import entry_name
from lessonsearch.coverage_render import (
    render_html,
    render_markdown,
    render_table,
    report_body,
)
from lessonsearch.glossary_table import GLOSSARY_DB
from lessonsearch.index_store import (
    CHECKSUMS,
    FILES,
    MANIFEST,
    WRITTEN,
    current_version,
    file_checksum,
)

COURSE = Path(__file__).resolve().parent / "data" / "coverage"
OLD = "https://bake.example.test/bread/"
"""The course file's base URL."""
NEW = "https://school.example.test/courses/bread/"
RETIRED = "\n## Cooling down\n\nLeave the loaf on a rack for an hour before slicing.\n"
LESSON = "03-shaping-and-baking.md"


def copied(tmp_path: Path) -> Path:
    return Path(shutil.copytree(COURSE, tmp_path / "course"))


def built_then_retired(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the course and its index, built once with the section ``RETIRED`` adds to
    the lesson, which is then taken out again (the next build finds its anchor gone)."""
    course, index = copied(tmp_path), tmp_path / "index"
    lesson = course / "lessons" / LESSON
    original = lesson.read_text(encoding="utf-8")
    lesson.write_text(original + RETIRED, encoding="utf-8")
    build(course, index)
    lesson.write_text(original, encoding="utf-8")
    return course, index


def build(course: Path, index: Path, base_url: str | None = None, full: bool = False):
    return build_index(course / "lessons", course / "glossary", index, base_url=base_url,
                       full=full)


def versions(index: Path) -> list[str]:
    return sorted(p.name for p in index.glob("v-*"))


def report_of(index: Path):
    return coverage_report(current_version(index), index)


def test_a_new_base_url_breaks_no_anchor_and_says_once_that_the_links_moved(tmp_path: Path):
    course, index = copied(tmp_path), tmp_path / "index"
    build(course, index)
    built = build(course, index, base_url=NEW)
    assert "3 lesson links changed" in built.summary()
    report = report_of(index)
    assert report.broken_anchors == ()
    assert report.moved_links == (LinksMoved("https://bake.example.test/",
                                             "https://school.example.test/courses/", 3,
                                             versions(index)[0]),)
    body = report_body(report)
    assert body["broken_anchors"] == []
    assert body["summary"]["broken_anchors"] == 0
    assert body["moved_links"] == [{
        "old_url": "https://bake.example.test/", "url": "https://school.example.test/courses/",
        "lesson_count": 3, "last_seen": versions(index)[0]}]
    line = ("3 lesson links moved from https://bake.example.test/ to "
            "https://school.example.test/courses/")
    assert line in render_table(report)
    assert line in render_markdown(report)
    assert line in render_html(report)


def test_a_full_build_at_a_new_base_url_finds_the_move_from_the_manifest(tmp_path: Path):
    course, index = copied(tmp_path), tmp_path / "index"
    build(course, index)
    build(course, index, base_url=NEW, full=True)
    report = report_of(index)
    assert report.broken_anchors == ()
    assert [m.lesson_count for m in report.moved_links] == [3]


def test_an_anchor_removed_with_the_move_is_listed_under_the_lessons_link_now(tmp_path):
    course, index = built_then_retired(tmp_path)
    build(course, index, base_url=NEW)
    report = report_of(index)
    (broken,) = report.broken_anchors
    assert entry_name("broken-anchors", broken) == "shaping-and-baking#cooling-down"
    assert broken.old_url == OLD + "shaping-and-baking#cooling-down"
    assert broken.url == NEW + "shaping-and-baking#cooling-down"
    assert broken.last_seen == versions(index)[0]
    assert f"its lesson is at {NEW}shaping-and-baking now" in render_table(report)
    assert [m.lesson_count for m in report.moved_links] == [3]


def test_broken_anchors_listed_before_a_move_are_carried_once_under_the_new_link(tmp_path):
    course, index = built_then_retired(tmp_path)
    build(course, index)  # lists cooling-down as broken, at the old base URL
    first = versions(index)[0]
    build(course, index, base_url=NEW)
    for _ in range(2):
        report = report_of(index)
        assert [(b.lesson, b.anchor, b.old_url, b.url, b.last_seen)
                for b in report.broken_anchors] == [
            ("shaping-and-baking", "cooling-down", OLD + "shaping-and-baking#cooling-down",
             NEW + "shaping-and-baking#cooling-down", first)]
        assert [m.lesson_count for m in report.moved_links] == [3]
        # A build at the same base URL changes nothing: the move and the anchor are carried.
        assert build(course, index, base_url=NEW).unchanged
    allow = tmp_path / "allow.txt"
    allow.write_text(f"broken-anchors: {OLD}shaping-and-baking#cooling-down\n",
                     encoding="utf-8")
    assert coverage_report(current_version(index), index, allow).broken_anchors == ()
    allow.write_text(f"broken-anchors: {NEW}shaping-and-baking#cooling-down\n",
                     encoding="utf-8")  # by its link now
    assert coverage_report(current_version(index), index, allow).broken_anchors == ()


def test_a_move_is_carried_until_the_links_are_back(tmp_path: Path):
    course, index = copied(tmp_path), tmp_path / "index"
    build(course, index)
    build(course, index, base_url=NEW)
    (lesson,) = [x for x in (course / "lessons").iterdir() if x.name == LESSON]
    lesson.write_text(lesson.read_text(encoding="utf-8") + "\nOne more line.\n",
                      encoding="utf-8")
    build(course, index, base_url=NEW)  # an edit, not at the link: the move stays listed
    assert [(m.url, m.lesson_count) for m in report_of(index).moved_links] == [
        ("https://school.example.test/courses/", 3)]
    build(course, index)  # back at the old base URL: the links published at the new one moved
    moved = report_of(index).moved_links
    assert [(m.old_url, m.url) for m in moved] == [
        ("https://school.example.test/courses/", "https://bake.example.test/")]
    assert report_of(index).broken_anchors == ()


def test_a_new_slug_is_a_moved_link_not_broken_anchors(tmp_path: Path):
    """The lesson is known by its file: its sections are all there, at its new link."""
    course, index = copied(tmp_path), tmp_path / "index"
    lesson = course / "lessons" / LESSON
    build(course, index)
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(
        "slug: shaping-and-baking", "slug: shaping"), encoding="utf-8")
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("## Building tension\n",
                                                                 "## Building strength\n"),
                      encoding="utf-8")
    build(course, index)
    report = report_of(index)
    assert report.moved_links == (LinksMoved(OLD + "shaping-and-baking", OLD + "shaping", 1,
                                             versions(index)[0]),)
    assert [(b.lesson, b.anchor, b.old_url, b.url) for b in report.broken_anchors] == [
        ("shaping", "building-tension", OLD + "shaping-and-baking#building-tension",
         OLD + "shaping#building-tension")]


def test_anchors_listed_by_a_version_that_kept_no_lesson_files_are_carried(tmp_path: Path):
    """A live version written before broken anchors kept their lesson's file (and before
    moved links): its entries are carried over a new base URL all the same, found by slug."""
    course, index = built_then_retired(tmp_path)
    build(course, index)
    live = current_version(index)
    db_file = live / GLOSSARY_DB
    with closing(sqlite3.connect(db_file)) as db:
        db.executescript("""
            DROP TABLE moved_links;
            CREATE TABLE old AS SELECT lesson, anchor, old_url, last_seen FROM broken_anchors;
            DROP TABLE broken_anchors;
            ALTER TABLE old RENAME TO broken_anchors;
        """)
    manifest = json.loads((live / MANIFEST).read_text(encoding="utf-8"))
    manifest[FILES][GLOSSARY_DB] = db_file.stat().st_size  # as that build would have written
    manifest[WRITTEN][GLOSSARY_DB] = db_file.stat().st_mtime_ns
    manifest[CHECKSUMS][GLOSSARY_DB] = file_checksum(db_file)
    (live / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    built = build(course, index, base_url=NEW)
    assert not built.notes
    assert [(b.old_url, b.url) for b in report_of(index).broken_anchors] == [
        (OLD + "shaping-and-baking#cooling-down", NEW + "shaping-and-baking#cooling-down")]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The CLI as its own process, importing this package (the one under test)."""
    source = str(Path(lessonsearch.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": source}
    env.pop("LESSONSEARCH_INDEX", None)
    return subprocess.run([sys.executable, "-m", "lessonsearch.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)


def test_the_cli_at_a_new_base_url_lists_no_broken_anchor_and_the_move(tmp_path: Path):
    copied(tmp_path)
    index = ["index", "--lessons", "course/lessons", "--glossary", "course/glossary",
             "--out", "index"]
    assert run(*index, cwd=tmp_path).returncode == 0
    moved = run(*index, "--base-url", NEW, cwd=tmp_path)
    assert moved.returncode == 0, moved.stderr
    assert "3 lesson links changed" in moved.stdout
    shown = run("coverage", "--index", "index", "--format", "json", "--fail-on",
                "broken-anchors", cwd=tmp_path)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    body = json.loads(shown.stdout)
    assert body["broken_anchors"] == []
    assert [(m["old_url"], m["url"], m["lesson_count"]) for m in body["moved_links"]] == [
        ("https://bake.example.test/", "https://school.example.test/courses/", 3)]
    table = run("coverage", "--index", "index", cwd=tmp_path)
    assert "Lesson links moved (1)" in table.stdout


PROVING = """Proving the shaped loaf

Once shaped, the loaf rests seam side up in a floured basket until a fingertip pressed into
it springs back slowly.

A cold night in the fridge slows the rise and lets the crumb take on a deeper, tangier taste.
"""
"""A lesson without headings: one section, so its page has no anchor to lose."""


def with_proving(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A copy of the course with ``PROVING`` as its fourth lesson, and its index, built."""
    course, index = copied(tmp_path), tmp_path / "index"
    lesson = course / "lessons" / "04-proving.txt"
    lesson.write_text(PROVING, encoding="utf-8")
    build(course, index)
    return course, index, lesson


def test_a_lesson_renamed_with_a_new_slug_is_a_move_of_its_page(tmp_path: Path):
    """File and slug both changed, the bytes kept: the lesson moved, headings or none."""
    course, index, lesson = with_proving(tmp_path)
    starter = course / "lessons" / "02-the-starter.md"  # a lesson with headings, whose slug
    starter.write_text(starter.read_text(encoding="utf-8").replace(
        "slug: the-starter\n", ""), encoding="utf-8")  # its file's name gives from now on
    build(course, index)
    lesson.rename(lesson.with_name("04-proving-baskets.txt"))
    starter.rename(starter.with_name("02-levain.md"))
    shaping = course / "lessons" / LESSON
    shaping.rename(shaping.with_name("03-shaping.md"))  # its front matter keeps its slug
    build(course, index)
    report = report_of(index)
    first = versions(index)[1]
    assert report.broken_anchors == ()
    assert report.moved_links == (LinksMoved(OLD + "proving", OLD + "proving-baskets", 1, first),
                                  LinksMoved(OLD + "the-starter", OLD + "levain", 1, first))
    line = f"1 lesson link moved from {OLD}proving to {OLD}proving-baskets"
    assert line in render_table(report)
    assert line in render_html(report)
    build(course, index, full=True)  # found from the manifest, without the build cache
    assert [m.old_url for m in report_of(index).moved_links] == [OLD + "proving",
                                                                 OLD + "the-starter"]


def test_the_build_summary_names_the_renamed_lessons_the_report_knows(tmp_path: Path):
    """A renamed lesson file was "1 lesson added, 1 removed" in the build's summary, where the
    coverage report knows the lesson at its new link: the summary names each rename, old
    file → new file, with the slug when it changed, and counts the links that moved."""
    course, index, lesson = with_proving(tmp_path)
    starter = course / "lessons" / "02-the-starter.md"
    starter.write_text(starter.read_text(encoding="utf-8").replace(
        "slug: the-starter\n", ""), encoding="utf-8")
    build(course, index)
    lesson.rename(lesson.with_name("04-proving-baskets.txt"))  # a new slug, its bytes kept
    starter.rename(starter.with_name("02-levain.md"))
    shaping = course / "lessons" / LESSON
    shaping.rename(shaping.with_name("03-shaping.md"))  # its front matter keeps its slug
    summary = build(course, index).summary()
    assert ("; 3 lessons renamed: lessons/02-the-starter.md → lessons/02-levain.md (slug "
            "the-starter → levain), lessons/03-shaping-and-baking.md → lessons/03-shaping.md, "
            "lessons/04-proving.txt → lessons/04-proving-baskets.txt (slug proving → "
            "proving-baskets); ") in summary
    assert "added" not in summary and "removed" not in summary
    assert "; 2 lesson links changed; " in summary
    assert len(report_of(index).moved_links) == 2

    edited = lesson.with_name("04-proving-baskets.txt")  # renamed and edited at once: not
    edited.write_text(PROVING.replace("A cold night", "A night"), encoding="utf-8")  # known
    edited.rename(lesson.with_name("04-baskets.txt"))
    summary = build(course, index).summary()
    assert "; 1 lesson added, 1 removed; " in summary and "renamed" not in summary
    assert [b.lesson for b in report_of(index).broken_anchors if not b.anchor] == [
        "proving-baskets"]


def test_a_lesson_page_no_lesson_has_now_is_a_broken_link(tmp_path: Path):
    """Renamed and edited at once, the lesson is not known to have moved: its page, which has
    no anchor, is listed once as a broken link; a removed lesson's page is listed before its
    anchors."""
    course, index, lesson = with_proving(tmp_path)
    lesson.with_name("04-proving-baskets.txt").write_text(
        PROVING.replace("A cold night", "A night"), encoding="utf-8")
    lesson.unlink()
    (course / "lessons" / "02-the-starter.md").unlink()
    build(course, index)
    report = report_of(index)
    first = versions(index)[0]
    pages = [(b.lesson, b.anchor, b.old_url, b.last_seen) for b in report.broken_anchors
             if not b.anchor]
    assert pages == [("the-starter", "", OLD + "the-starter", first),
                     ("proving", "", OLD + "proving", first)]
    starter = [entry_name("broken-anchors", b) for b in report.broken_anchors
               if b.lesson == "the-starter"]
    assert starter == ["the-starter", "the-starter#feeding-a-culture",
                       "the-starter#timing-the-rise"]
    assert report.moved_links == ()
    assert f"proving: the lesson's page, which no lesson has now, was {OLD}proving" in (
        render_table(report))
    assert f'<a href="{OLD}proving">{OLD}proving</a>' in render_html(report)
    body = report_body(report)
    assert {"lesson": "proving", "anchor": "", "old_url": OLD + "proving",
            "last_seen": first, "source": "lessons/04-proving.txt",
            "url": OLD + "proving"} in body["broken_anchors"]
    assert build(course, index).unchanged  # carried, until the page is back or allowed
    assert ("proving", OLD + "proving") in [(b.lesson, b.old_url)
                                            for b in report_of(index).broken_anchors]
    allow = tmp_path / "allow.txt"
    allow.write_text("broken-anchors: proving\n", encoding="utf-8")
    allowed = coverage_report(current_version(index), index, allow)
    assert "proving" not in [b.lesson for b in allowed.broken_anchors]
    assert allowed.allow_warnings == ()
    lesson.write_text(PROVING, encoding="utf-8")  # the page is back
    build(course, index)
    back = coverage_report(current_version(index), index, allow)
    assert "proving" not in [b.lesson for b in back.broken_anchors]
    assert [w.reason for w in back.allow_warnings] == [
        "the course has this lesson page again, so it is no broken lesson page: the line is "
        "stale and can go"]
