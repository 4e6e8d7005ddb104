"""A link to a folder inside the lessons or glossary folder is entered, as a link to a file is
read: a course editor who linked a shared folder of lessons in lost them without a word.
Each folder is read once, whatever leads to it twice; a link to a folder that holds the
course is a loop, and a warning. Real links in real folders throughout."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lessonsearch import cli, whoosh_writer
from lessonsearch import course as course_module
from lessonsearch.build import build_index
from lessonsearch.course import read_course
from lessonsearch.searcher import Searcher


def lesson(path: Path, title: str, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {title}\n\n## Notes\n\n{text}\n", encoding="utf-8")


def searched(index: Path, query: str) -> list[str]:
    searcher = Searcher.open(index)
    try:
        return [hit.lesson for hit in searcher.search(query).results]
    finally:
        searcher.close()


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """``course/lessons`` with one lesson of its own, and ``shared/`` beside the course (two
    lessons, one a folder down) linked in as ``lessons/shared``, by a relative link."""
    lesson(tmp_path / "course" / "lessons" / "01-intro.md", "Intro", "Telescopes first.")
    lesson(tmp_path / "shared" / "02-quasars.md", "Quasars", "Quasars are bright.")
    lesson(tmp_path / "shared" / "deep" / "03-pulsars.md", "Pulsars", "Pulsars spin fast.")
    (tmp_path / "course" / "lessons" / "shared").symlink_to(Path("..", "..", "shared"))
    return tmp_path / "course"


def test_a_linked_folder_of_lessons_is_indexed(course: Path, tmp_path: Path, capsys,
                                               monkeypatch) -> None:
    monkeypatch.chdir(course)
    assert cli.main(["index", "--lessons", "lessons", "--out", str(tmp_path / "index")]) == 0
    out, err = capsys.readouterr()
    assert "warning:" not in err
    assert out.startswith("Indexed 3 lessons, ")
    assert "; 0 warnings, 0 skipped files;" in out
    assert searched(tmp_path / "index", "quasars") == ["quasars"]
    assert searched(tmp_path / "index", "pulsars") == ["pulsars"]
    assert [x.source for x in read_course(course / "lessons").course.lessons] == [
        "lessons/01-intro.md", "lessons/shared/02-quasars.md",
        "lessons/shared/deep/03-pulsars.md"]


def test_each_folder_is_read_once_and_a_link_around_the_course_is_a_warning(
        course: Path, tmp_path: Path, capsys) -> None:
    """The shared folder linked again, a folder in it linked on its own, a link in it to
    itself and one back into the course, a link to a folder of the course: each lesson
    is read once, at the first name it has in path order (a real folder's own, in the
    course), and no lesson is called a copy of another. A link to the folder the course
    is in would read the course again: it is not entered, and says so, at every build."""
    lessons = course / "lessons"
    (lessons / "again").symlink_to(tmp_path / "shared")
    (lessons / "zz-deep").symlink_to(tmp_path / "shared" / "deep")
    (tmp_path / "shared" / "itself").symlink_to(".")
    (tmp_path / "shared" / "back").symlink_to(lessons / "m1")
    lesson(lessons / "m1" / "04-moons.md", "Moons", "Moons orbit.")
    (lessons / "aa-m1").symlink_to("m1")
    (lessons / "up").symlink_to("..")
    warning = "lessons/up: links to '..', which holds 'lessons' itself (a loop); it was not read"
    for build in ("first", "next"):
        argv = ["index", "--lessons", str(lessons), "--out", str(tmp_path / "index")]
        assert cli.main(argv) == 0, build
        out, err = capsys.readouterr()
        assert [line for line in err.splitlines() if line.startswith("warning:")] == [
            f"warning: {warning}"], build
        assert "Indexed 4 lessons" in out or "Read 4 lessons" in out, build
        assert "; 1 warning, 1 skipped file;" in out, build
        for word, slug in (("quasars", "quasars"), ("pulsars", "pulsars"), ("moons", "moons")):
            assert searched(tmp_path / "index", word) == [slug], (build, word)
    read = read_course(lessons)
    assert [str(p) for p in read.problems] == [warning]
    assert [x.source for x in read.course.lessons] == [
        "lessons/01-intro.md", "lessons/again/02-quasars.md",
        "lessons/again/deep/03-pulsars.md", "lessons/m1/04-moons.md"]


def test_a_lesson_changed_under_a_linked_folder_is_rebuilt(course: Path, tmp_path: Path,
                                                           monkeypatch) -> None:
    """An edit made in the shared folder, outside the course, is an edit of the course's
    lesson; so is the link pointed at another folder. (Status trusted at once: the margin
    for coarse file system clocks is set to nothing, and each lesson made its own chunk.)"""
    monkeypatch.setattr(course_module, "RACY_NS", 0)
    monkeypatch.setattr(whoosh_writer, "CHUNK_DOCS", 1)
    lessons, out = course / "lessons", tmp_path / "index"
    build_index(lessons, None, out)
    quasars = tmp_path / "shared" / "02-quasars.md"
    quasars.write_text(quasars.read_text().replace("bright", "BRIGHT"))  # the same size
    quasars.write_text(quasars.read_text().replace("BRIGHT", "blazed"))
    report = build_index(lessons, None, out)
    assert report.rewritten == 1
    assert searched(out, "blazed") == ["quasars"]
    assert searched(out, "bright") == []

    lesson(tmp_path / "other" / "02-nebulae.md", "Nebulae", "Nebulae glow.")
    os.remove(lessons / "shared")
    (lessons / "shared").symlink_to(tmp_path / "other")
    report = build_index(lessons, None, out)
    assert report.lessons == 2
    assert searched(out, "nebulae") == ["nebulae"]
    assert searched(out, "blazed") == searched(out, "pulsars") == []


def test_a_linked_glossary_folder_is_read(course: Path, tmp_path: Path, capsys,
                                          monkeypatch) -> None:
    """The glossary's files were found by ``rglob``, which enters no linked folder and
    passes over a folder it may not open: both without a word. (The refusal is faked, as
    ``chmod`` does not stop the root user the tests run as.)"""
    glossary = course / "glossary"
    (glossary / "sub").mkdir(parents=True)
    (glossary / "sub" / "hidden.md").write_text("Nebula\n:   A cloud of gas.\n")
    (tmp_path / "terms").mkdir()
    (tmp_path / "terms" / "space.md").write_text("Quasar\n:   A very bright galaxy core.\n")
    (glossary / "terms").symlink_to(tmp_path / "terms")
    (glossary / "up").symlink_to("..")
    scandir = os.scandir

    def refuse(path="."):
        if str(path).endswith("sub"):
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    monkeypatch.chdir(course)
    assert cli.main(["index", "--lessons", "lessons", "--glossary", "glossary",
                     "--out", str(tmp_path / "index")]) == 0
    out, err = capsys.readouterr()
    assert [line for line in err.splitlines() if line.startswith("warning:")] == [
        "warning: glossary/sub: Cannot read this folder (Permission denied); the files in it "
        "were skipped.",
        "warning: glossary/up: Links to '..', which holds 'glossary' itself (a loop); it was "
        "not read."]
    assert "1 term;" in out
    searcher = Searcher.open(tmp_path / "index")
    try:
        assert [r.term for r in searcher.glossary.records] == ["Quasar"]
    finally:
        searcher.close()
