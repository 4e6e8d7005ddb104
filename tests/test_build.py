"""The build pipeline and the index folder: the atomic swap, stale leftovers, the lock."""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from lessonsearch import build, course, index_store
from lessonsearch.build import build_index
from lessonsearch.errors import BuildInProgress, IndexNotBuilt
from lessonsearch.searcher import Searcher


def build_tiny(tiny_course: Path, out: Path, **kwargs):
    return build_index(tiny_course / "lessons", tiny_course / "glossary", out, **kwargs)


def versions(out: Path) -> list[str]:
    return sorted(p.name for p in out.glob("v-*"))


def tmp_folders(out: Path) -> list[str]:
    return sorted(p.name for p in out.glob("*.tmp"))


def search_works(out: Path) -> bool:
    searcher = Searcher.open(out)
    try:
        return searcher.search("temperature").total > 0
    finally:
        searcher.close()


class Boom(RuntimeError):
    pass


@pytest.fixture
def built(tiny_course: Path, tmp_path: Path):
    """An index folder with one good version; returns (folder, version name)."""
    out = tmp_path / "index"
    report = build_tiny(tiny_course, out)
    return out, report.version


# --- A good build ---------------------------------------------------------------------------


def test_report_and_summary(tiny_course: Path, tmp_path: Path) -> None:
    report = build_tiny(tiny_course, tmp_path / "index")
    assert (report.lessons, report.sections, report.warnings, report.skipped) == (4, 13, 0, 0)
    assert report.documents == report.sections + 2  # one check question, one summary
    assert report.terms >= 4  # the glossary's four, plus any a lesson defines
    summary = report.summary()
    assert summary.startswith("Indexed 4 lessons, 13 sections, ")
    assert f"{report.terms} terms; 0 warnings, 0 skipped files; " in summary
    assert report.version in summary
    assert "\n" not in summary


def test_layout_and_manifest(built) -> None:
    out, version = built
    assert os.readlink(out / "current") == version
    assert index_store.current_version(out) == out / version
    assert {p.name for p in (out / version).iterdir()} >= {
        "whoosh", "glossary.sqlite", "manifest.json",
    }
    manifest = json.loads((out / version / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["version"] == version
    assert manifest["course"]["slug"] == "tiny-course"
    assert manifest["counts"]["lessons"] == 4
    assert manifest["counts"]["sections"] == 13
    assert manifest["counts"]["skipped"] == 0
    assert [x["slug"] for x in manifest["lessons"]] == ["tokens", "sampling", "kv-cache", "notes"]
    tokens = manifest["lessons"][0]
    assert tokens["anchors"] == [
        "what-is-a-token", "counting-tokens-in-a-sentence", "try-it", "try-it-1",
    ]
    assert tokens["module"] == "basics"
    assert tmp_folders(out) == []


def test_base_url_reaches_the_index(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-one.md").write_text("---\ntitle: One\n---\n\n## First words\n\nHello there.\n",
                                       encoding="utf-8")
    build_index(lessons, None, tmp_path / "index", base_url="https://learn.example.test/c/")
    manifest = index_store.read_manifest(index_store.current_version(tmp_path / "index"))
    assert manifest["lessons"][0]["url"] == "https://learn.example.test/c/one"


def test_missing_lessons_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="No lessons folder"):
        build_index(tmp_path / "nowhere", None, tmp_path / "index")


def test_a_named_glossary_folder_that_is_missing_is_refused(built, tiny_course) -> None:
    """A mistyped glossary path must not publish an index without the glossary's terms."""
    out, version = built
    with pytest.raises(FileNotFoundError, match="No glossary folder at .*noglossary"):
        build_index(tiny_course / "lessons", tiny_course / "noglossary", out)
    assert index_store.current_version(out).name == version


def test_no_index_yet(tmp_path: Path) -> None:
    with pytest.raises(IndexNotBuilt, match="lessonsearch index"):
        Searcher.open(tmp_path / "index")


# --- The atomic swap: a failing build leaves the old version live -------------------------------


def test_failing_index_writer_keeps_the_old_version(built, tiny_course, monkeypatch) -> None:
    out, version = built
    real_plan = build.plan_whoosh

    def write_then_fail(folder, docs, *args, **kwargs):
        def some_then_boom():
            for number, doc in enumerate(docs):
                if number == 3:
                    raise Boom("disk on fire")
                yield doc
        return real_plan(folder, some_then_boom(), *args, **kwargs)

    monkeypatch.setattr(build, "plan_whoosh", write_then_fail)
    with pytest.raises(Boom):
        build_tiny(tiny_course, out)
    assert os.readlink(out / "current") == version
    assert versions(out) == [version]
    assert tmp_folders(out) == []
    assert search_works(out)


def broken_reader(text: str, source: str):
    raise Boom(f"reader crashed on {source}")


def test_failing_reader_keeps_the_old_version(built, tiny_course, monkeypatch) -> None:
    """A reader bug (not a LessonFormatError) stops the build rather than index half a course."""
    out, version = built
    monkeypatch.setitem(course.READERS, ".txt", broken_reader)
    with pytest.raises(Boom):
        build_tiny(tiny_course, out, full=True)  # full: no cached reading to skip the reader
    assert os.readlink(out / "current") == version
    assert versions(out) == [version]
    assert tmp_folders(out) == []
    assert search_works(out)


def test_interrupted_build_keeps_the_old_version(built, tiny_course, monkeypatch) -> None:
    out, version = built

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "find_terms", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_tiny(tiny_course, out)
    assert os.readlink(out / "current") == version
    assert tmp_folders(out) == []
    assert search_works(out)


def test_a_glossary_failure_while_segments_are_written_keeps_the_old_version(
        built, tiny_course, monkeypatch) -> None:
    """The Whoosh segments are being written by other processes when the glossary fails:
    they are stopped, the lock they were written under is released, nothing is published."""
    out, version = built

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(build, "write_glossary", full_disk)
    with pytest.raises(OSError, match="No space"):
        build_tiny(tiny_course, out, full=True)
    assert os.readlink(out / "current") == version
    assert tmp_folders(out) == []
    monkeypatch.undo()
    report = build_tiny(tiny_course, out, full=True)  # not refused: no lock was left behind
    assert os.readlink(out / "current") == report.version
    assert search_works(out)


def test_failure_while_publishing_keeps_the_old_version(built, tiny_course, monkeypatch) -> None:
    out, version = built

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(index_store, "_fsync_tree", no_space)
    with pytest.raises(OSError, match="No space"):
        build_tiny(tiny_course, out, full=True)  # unchanged, it would keep the version
    assert os.readlink(out / "current") == version
    assert versions(out) == [version]
    assert tmp_folders(out) == []


def test_a_failed_first_build_leaves_no_index(tiny_course, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(build, "plan_whoosh", lambda *a, **k: (_ for _ in ()).throw(Boom()))
    with pytest.raises(Boom):
        build_tiny(tiny_course, tmp_path / "index")
    assert tmp_folders(tmp_path / "index") == []
    with pytest.raises(IndexNotBuilt):
        Searcher.open(tmp_path / "index")


def test_broken_lessons_do_not_fail_the_build(built, tmp_path) -> None:
    """LessonFormatError is a warning, not a failure: that path must not trip the swap logic."""
    lessons = tmp_path / "more"
    lessons.mkdir()
    (lessons / "bad.json").write_text("{", encoding="utf-8")
    (lessons / "good.md").write_text("## Fine\n\nA fine lesson.\n", encoding="utf-8")
    out, old = built
    report = build_index(lessons, None, out)
    assert report.skipped == 1
    assert os.readlink(out / "current") == report.version != old


def test_a_strict_build_with_a_problem_publishes_nothing(built, tiny_course, tmp_path) -> None:
    """``--strict`` fails a CI job on a broken lesson; the live index must stay as it was,
    not already serve the course without that lesson."""
    lessons = shutil.copytree(tiny_course / "lessons", tmp_path / "strict")
    (lessons / "05-broken.json").write_text("{", encoding="utf-8")
    out, version = built
    before = sorted(p.name for p in out.iterdir())
    report = build_index(lessons, tiny_course / "glossary", out, strict=True)
    assert not report.published and report.version == ""
    assert (report.lessons, report.sections, report.skipped) == (4, 13, 1)
    assert report.summary().startswith("Read 4 lessons, 13 sections, ")
    assert report.summary().endswith(
        "(not published under --strict: the live index is unchanged)")
    assert os.readlink(out / "current") == version
    assert sorted(p.name for p in out.iterdir()) == before  # no new version, no .tmp
    assert build_index(lessons, tiny_course / "glossary", out).published  # without --strict


def test_a_strict_build_fails_on_a_lesson_in_no_module(built, tiny_course, tmp_path) -> None:
    """The course file lists every lesson in a module; one added to the folder alone is a
    warning, so ``--strict`` publishes nothing; without it, the lesson is indexed."""
    lessons = shutil.copytree(tiny_course / "lessons", tmp_path / "strict")
    (lessons / "05-batching.md").write_text(
        "## Batching requests\n\nServing many prompts at once keeps the accelerator busy.\n",
        encoding="utf-8")
    out, version = built
    report = build_index(lessons, tiny_course / "glossary", out, strict=True)
    assert not report.published and os.readlink(out / "current") == version
    assert [(p.path, p.message.split(":")[0]) for p in report.problems] == [
        ("strict/05-batching.md", "no module lists this lesson")]
    report = build_index(lessons, tiny_course / "glossary", out)
    assert report.published and report.warnings == 1
    manifest = json.loads((out / report.version / "manifest.json").read_text("utf-8"))
    assert [(x["slug"], x["module"]) for x in manifest["lessons"]][-1] == ("batching", None)


def test_a_strict_build_without_problems_is_published(built, tiny_course) -> None:
    out, version = built
    report = build_tiny(tiny_course, out, strict=True, full=True)
    assert report.published and os.readlink(out / "current") == report.version != version


def test_a_summary_of_one_says_each_count_in_the_singular(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-one.md").write_text("## Alone\n\nOne lesson, one section.\n")
    (lessons / "02-handout.docx").write_bytes(b"PK")
    report = build_index(lessons, None, tmp_path / "index")
    assert report.summary().startswith(
        "Indexed 1 lesson, 1 section, 0 terms; 1 warning, 1 skipped file; ")
    assert report.summary().endswith("; 1 of 1 lesson rewritten)")


def test_a_summary_says_what_a_version_changed_when_it_rewrote_no_lesson(tmp_path: Path
                                                                          ) -> None:
    """A lesson of a title alone, added, rewrote nothing (it has nothing to index), and a
    broken file added published a version for its warning: each summary read "0 of 2 lessons
    rewritten", as if the build had done nothing."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-one.md").write_text("## Alone\n\nOne lesson, one section.\n")
    out = tmp_path / "index"
    build_index(lessons, None, out)
    (lessons / "02-title.txt").write_text("A title alone\n")
    report = build_index(lessons, None, out)
    assert report.published and report.summary().endswith(
        "; 1 lesson added; the warnings changed; 0 of 2 lessons rewritten)")
    (lessons / "03-broken.json").write_text('{"lesson": ')
    report = build_index(lessons, None, out)
    assert report.published and report.summary().endswith(
        "; the warnings changed; 0 of 2 lessons rewritten)")
    (lessons / "02-title.txt").unlink()
    (lessons / "03-broken.json").unlink()
    (lessons / "04-two.md").write_text("## Two\n\nAnother lesson.\n")
    assert build_index(lessons, None, out).summary().endswith(
        "; 1 lesson added, 1 removed; the warnings changed; 1 of 2 lessons rewritten)")


def test_a_summary_says_a_lesson_file_renamed_with_its_slug_was_renamed(tmp_path: Path
                                                                        ) -> None:
    """Files renumbered, their slugs kept (edited too), read "3 lessons added, 3 removed";
    past three, the summary names the first three and counts the rest."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    names = ["alpha", "beta", "gamma", "delta", "epsilon"]
    for n, name in enumerate(names, 1):
        (lessons / f"0{n}-{name}.md").write_text(f"## {name.title()}\n\nAbout {name}.\n")
    out = tmp_path / "index"
    build_index(lessons, None, out)
    (lessons / "01-alpha.md").rename(lessons / "01-alpha.txt")
    (lessons / "03-gamma.md").unlink()
    (lessons / "03-gamma.md").with_name("03-gamma-rays.md").write_text(
        "## Gamma\n\nAbout gamma rays.\n")  # a new slug and new bytes: another lesson
    report = build_index(lessons, None, out)
    assert report.changes == (
        "1 lesson added, 1 removed, 1 renamed: lessons/01-alpha.md → lessons/01-alpha.txt",)
    assert f"; {report.changes[0]}; " in report.summary()
    for n in range(1, len(names) + 1):
        for old in lessons.glob(f"0{n}-*"):
            old.rename(lessons / f"1{n}-{old.name[3:]}")
    (lessons / "12-beta.md").write_text("## Beta\n\nAbout beta, edited.\n")
    assert build_index(lessons, None, out).changes == (
        "5 lessons renamed: lessons/01-alpha.txt → lessons/11-alpha.txt, "
        "lessons/02-beta.md → lessons/12-beta.md, lessons/03-gamma-rays.md → "
        "lessons/13-gamma-rays.md, and 2 more",)


def test_a_summary_names_the_glossary_and_the_course_file_when_they_changed(tmp_path: Path
                                                                            ) -> None:
    """A definition edited in the glossary published a version that rewrote no lesson, and
    its summary read "0 of 1 lesson rewritten" alone; so did a new [coverage] table."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    glossary.mkdir()
    (lessons / "01-one.md").write_text("## Bells\n\nA bell rings in the tower.\n")
    (glossary / "glossary.md").write_text("bell\n: A hollow metal cup that rings.\n")
    out = tmp_path / "index"
    build_index(lessons, glossary, out)
    (glossary / "glossary.md").write_text("bell\n: A hollow cup of bronze that rings.\n")
    report = build_index(lessons, glossary, out)
    assert report.published and report.summary().endswith(
        "; the glossary changed; 0 of 1 lesson rewritten)")
    (lessons / "lessonsearch.toml").write_text('[coverage]\nunused = ["bell"]\n')
    report = build_index(lessons, glossary, out)
    assert report.published and report.summary().endswith(
        "; the course file's [coverage] table changed; 0 of 1 lesson rewritten)")
    report = build_index(lessons, glossary, out, base_url="https://bells.example/l/")
    assert report.published and report.summary().endswith(
        "; 1 lesson link changed; 1 of 1 lesson rewritten)")
    (lessons / "lessonsearch.toml").write_text(
        '[course]\ntitle = "Bells"\n\n[coverage]\nunused = ["bell"]\n')
    report = build_index(lessons, glossary, out, base_url="https://bells.example/l/")
    assert "; the course title changed; " in report.summary()


def test_the_readmes_summary_line_is_what_an_edit_of_the_sample_course_prints(
        tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    shown = re.search(r"^Indexed 18 lessons.*$", (root / "README.md").read_text(), re.M)[0]
    course = tmp_path / "course"
    shutil.copytree(root / "lessons", course / "lessons")
    build_index(course / "lessons", root / "glossary", tmp_path / "index")
    lesson = course / "lessons" / "09-attention.md"
    lesson.write_text(lesson.read_text() + "\nOne more sentence about attention.\n")
    printed = build_index(course / "lessons", root / "glossary", tmp_path / "index").summary()
    times_and_versions = re.compile(r"\d+\.\d+ s|v-[\w-]+|v-…")
    assert times_and_versions.sub("", printed) == times_and_versions.sub("", shown)


def test_the_readmes_nothing_changed_line_is_what_a_rebuild_of_the_sample_course_prints(
        tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    shown = re.search(r"^Read 18 lessons.*nothing changed.*$",
                      (root / "README.md").read_text(), re.M)[0]
    first = build_index(root / "lessons", root / "glossary", tmp_path / "index")
    again = build_index(root / "lessons", root / "glossary", tmp_path / "index")
    assert again.version == first.version
    times_and_versions = re.compile(r"\d+\.\d+ s|v-[\w-]+|v-…")
    assert times_and_versions.sub("", again.summary()) == times_and_versions.sub("", shown)


# --- Leftovers, the lock, old versions -------------------------------------------------------


def test_a_stale_tmp_folder_is_removed_by_the_next_build(built, tiny_course) -> None:
    out, version = built
    stale = out / "v-20200101T000000000000-dead00.tmp"
    (stale / "whoosh").mkdir(parents=True)
    (stale / "whoosh" / "half-written.seg").write_bytes(b"\0" * 128)
    report = build_tiny(tiny_course, out, full=True)
    assert not stale.exists()
    assert tmp_folders(out) == []
    assert os.readlink(out / "current") == report.version
    assert versions(out) == sorted([version, report.version])


def test_a_second_build_at_once_is_refused(built, tiny_course) -> None:
    out, version = built
    with index_store.build_lock(out), pytest.raises(BuildInProgress, match="Another build"):
        build_tiny(tiny_course, out)
    assert os.readlink(out / "current") == version
    assert tmp_folders(out) == []
    # The lock is released with its holder: the next build goes through.
    report = build_tiny(tiny_course, out)
    assert os.readlink(out / "current") == report.version


def test_failing_reader_on_a_changed_file_keeps_the_old_version(
    tiny_course, tmp_path, monkeypatch
) -> None:
    """The incremental path: unchanged files come from the cache, the edited one is read."""
    lessons = tmp_path / "lessons"
    shutil.copytree(tiny_course / "lessons", lessons)
    out = tmp_path / "index"
    version = build_index(lessons, tiny_course / "glossary", out).version
    notes = lessons / "04-notes.txt"
    notes.write_text(notes.read_text(encoding="utf-8") + "\nOne more paragraph to read.\n",
                     encoding="utf-8")
    monkeypatch.setitem(course.READERS, ".txt", broken_reader)
    with pytest.raises(Boom):
        build_index(lessons, tiny_course / "glossary", out)
    assert os.readlink(out / "current") == version
    assert versions(out) == [version]
    assert tmp_folders(out) == []
    assert search_works(out)
    monkeypatch.undo()
    assert build_index(lessons, tiny_course / "glossary", out).version != version
    searcher = Searcher.open(out)
    try:
        assert searcher.search("paragraph", lesson="notes").total == 1
    finally:
        searcher.close()


def test_the_lock_is_released_after_a_failed_build(built, tiny_course, monkeypatch) -> None:
    out, _ = built
    monkeypatch.setitem(course.READERS, ".md", broken_reader)
    with pytest.raises(Boom):
        build_tiny(tiny_course, out, full=True)
    monkeypatch.undo()
    build_tiny(tiny_course, out)  # would raise BuildInProgress if the lock had leaked


def test_an_open_searcher_keeps_its_version_across_a_rebuild(built, tiny_course) -> None:
    out, version = built
    searcher = Searcher.open(out)
    try:
        before = searcher.search("temperature").total
        report = build_tiny(tiny_course, out, full=True)
        assert report.version != version
        assert searcher.version == version
        assert searcher.search("temperature").total == before
    finally:
        searcher.close()


def test_old_versions_are_pruned_but_the_recent_ones_kept(built, tiny_course) -> None:
    out, first = built
    names = [first] + [build_tiny(tiny_course, out, full=True).version for _ in range(4)]
    assert names == sorted(names)  # names sort in build order
    assert versions(out) == names[-index_store.KEEP_VERSIONS:]
    assert os.readlink(out / "current") == names[-1]
    assert not list(out.glob(".current.*"))


def test_a_course_of_only_broken_files_builds_an_empty_index(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "only.md").write_bytes(b"")
    report = build_index(lessons, None, tmp_path / "index")
    assert (report.lessons, report.sections, report.skipped) == (0, 0, 1)
    searcher = Searcher.open(tmp_path / "index")
    try:
        assert searcher.search("anything").total == 0
    finally:
        searcher.close()


def test_a_build_leaves_no_reference_cycles_behind(tiny_course: Path, tmp_path: Path) -> None:
    """Everything a build makes is freed by reference counting when it returns. (Whoosh's
    file storage kept a caught exception in a local: its traceback held every frame of the
    build, the course and the cache with them, until the cycle collector ran.)"""
    course_dir = tmp_path / "course"
    shutil.copytree(tiny_course, course_dir)
    lesson = sorted((course_dir / "lessons").glob("*.md"))[0]
    gc.collect()
    gc.disable()
    try:
        build_index(course_dir / "lessons", course_dir / "glossary", tmp_path / "index")
        after_full = gc.collect()
        lesson.write_text(lesson.read_text() + "\nOne more paragraph.\n")
        report = build_index(course_dir / "lessons", course_dir / "glossary",
                             tmp_path / "index")
        after_incremental = gc.collect()
    finally:
        gc.enable()
    assert report.rewritten >= 1
    assert (after_full, after_incremental) == (0, 0)
