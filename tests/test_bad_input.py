"""Broken input never stops a build: one warning per file (file, line, column), the file skipped,
the rest of the course indexed; duplicated lessons and colliding slugs are resolved with a warning.

The fixtures live in tests/data/bad/: ``lessons/`` (two good lessons, eight broken files and
one whose ``position`` is a word, indexed with a warning),
``duplicate/`` (a JSON export and a plain-text copy of it) and ``collision/`` (two different
lessons whose file names give the same slug). The 50 MB file is generated at test time.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from lessonsearch import cli, course
from lessonsearch.build import build_index
from lessonsearch.course import MAX_FILE_BYTES, read_course
from lessonsearch.searcher import Searcher

BAD = Path(__file__).resolve().parent / "data" / "bad"
GOOD = ("01-attention.md", "02-embeddings.txt")

# file → (what the warning says, line, column); None where a place makes no sense.
CASES = {
    "03-invalid.json": ("invalid JSON", 3, 3),
    "04-missing-slug.json": ("lesson.slug is missing", 2, None),
    "06-latin1.txt": ("not UTF-8 text (byte 0xe9)", 3, 6),
    "07-empty.md": ("empty lesson file", 1, None),
    "08-binary.txt": ("binary file", None, None),
    "09-handout.docx": ("unknown file type '.docx'", None, None),
    "10-broken-front-matter.md": ("invalid front matter", 3, 7),  # where its '[' opens
    "14-unclosed-front-matter.md": ("front matter opened with '---' is never closed", 1, None),
}
WARNED = "05-position-seven.json"
"""Read past: its position is a word, which is ignored with a warning."""


def course_with(tmp_path: Path, *names: str) -> Path:
    """A fresh course folder holding the two good lessons and the named bad files."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    for name in (*GOOD, *names):
        shutil.copy(BAD / "lessons" / name, folder / name)
    return folder


def good_slugs(read) -> list[str]:
    return [lesson.slug for lesson in read.course.lessons]


# --- One broken file at a time ------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_warning_naming_file_line_and_column(tmp_path: Path, name: str) -> None:
    words, line, column = CASES[name]
    read = read_course(course_with(tmp_path, name))
    assert len(read.problems) == 1
    problem = read.problems[0]
    assert problem.path == f"lessons/{name}"
    assert words in problem.message
    assert (problem.line, problem.column) == (line, column)
    assert problem.skipped
    assert read.skipped == (f"lessons/{name}",)
    # The rest of the course is still there.
    assert good_slugs(read) == ["attention", "embeddings"]
    where = f"lessons/{name}" + (f":{line}" if line else "") + (f":{column}" if column else "")
    assert str(problem).startswith(where + ": ")


def test_a_position_that_is_no_number_is_ignored_with_a_warning(tmp_path: Path) -> None:
    read = read_course(course_with(tmp_path, WARNED))
    assert [str(p) for p in read.problems] == [
        f"lessons/{WARNED}:5: lesson.position must be a whole number, not 'seven'; it is "
        "ignored, and the lesson takes its place from the course file or its file name"]
    assert read.skipped == ()
    assert good_slugs(read) == ["attention", "embeddings", "position-seven"]
    assert read.course.lessons[2].position == 3


def test_a_50_mb_file_is_skipped_without_reading_it(tmp_path: Path) -> None:
    folder = course_with(tmp_path)
    chunk = ("A paragraph that goes on and on about tokens and caches. " * 100 + "\n\n").encode()
    with open(folder / "99-huge.txt", "wb") as handle:
        handle.write(b"A lesson far too long\n\n")
        while handle.tell() < 50 * 1024 * 1024:
            handle.write(chunk)
    assert (folder / "99-huge.txt").stat().st_size > MAX_FILE_BYTES
    read = read_course(folder)
    assert len(read.problems) == 1
    assert read.problems[0].path == "lessons/99-huge.txt"
    assert "MB" in read.problems[0].message and "limit" in read.problems[0].message
    assert read.skipped == ("lessons/99-huge.txt",)
    assert good_slugs(read) == ["attention", "embeddings"]


def test_binary_file_without_nul_bytes_is_still_refused(tmp_path: Path) -> None:
    """Control characters all over a file that does decode as UTF-8: not a lesson either."""
    folder = course_with(tmp_path)
    (folder / "11-controls.txt").write_bytes(bytes(range(1, 32)) * 40)
    read = read_course(folder)
    assert [p.path for p in read.problems] == ["lessons/11-controls.txt"]
    assert "binary" in read.problems[0].message
    assert good_slugs(read) == ["attention", "embeddings"]


def test_json_nested_too_deep_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    folder = course_with(tmp_path)
    (folder / "12-deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    read = read_course(folder)
    assert [p.path for p in read.problems] == ["lessons/12-deep.json"]
    assert read.problems[0].skipped
    assert good_slugs(read) == ["attention", "embeddings"]


@pytest.mark.parametrize("name", ["13-bom.md", "13-bom.txt"])
def test_bom_and_crlf_are_not_problems(tmp_path: Path, name: str) -> None:
    folder = course_with(tmp_path)
    if name.endswith(".md"):
        text = "---\r\ntitle: Windows lesson\r\n---\r\n\r\n## Saved on Windows\r\n\r\nIt works.\r\n"
    else:
        text = "Windows lesson\r\n\r\nSaved on Windows\r\n\r\nThe line endings are CRLF here.\r\n"
    (folder / name).write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    read = read_course(folder)
    assert read.problems == ()
    lesson = next(x for x in read.course.lessons if x.source.endswith(name))
    assert lesson.title == "Windows lesson"
    assert [s.anchor for s in lesson.sections if s.anchor] == ["saved-on-windows"]


# --- YAML aliases and long values ---------------------------------------------------------


def nested_aliases(levels: int) -> str:
    """YAML "billion laughs": each level an anchored list of nine aliases of the one before,
    so the last stands for 9 ** levels values in a few hundred bytes."""
    lines = ['l0: &l0 ["ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha"]']
    lines += [f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 9) + "]"
              for n in range(1, levels)]
    return "\n".join(lines)


@pytest.mark.parametrize("levels", [5, 9])
def test_front_matter_whose_aliases_expand_too_far_is_refused_at_its_line(
        tmp_path: Path, levels: int) -> None:
    """Five levels made one warning line of 428 KB quoting the title, and nine hung the
    build; refused, the file is skipped at the first value that expands past the bound (the
    fifth level, on line 6), and the rest indexed."""
    folder = course_with(tmp_path)
    (folder / "15-laughs.md").write_text(
        f"---\n{nested_aliases(levels)}\ntitle: *l{levels - 1}\n---\n\n# Laughs\n\nHa.\n",
        encoding="utf-8")
    read = read_course(folder)
    assert [str(p) for p in read.problems] == [
        "lessons/15-laughs.md:6:5: invalid front matter: YAML aliases (*name) expand this "
        "value past 10,000 values"]
    assert read.skipped == ("lessons/15-laughs.md",)
    assert good_slugs(read) == ["attention", "embeddings"]


def test_an_alias_of_a_value_holding_itself_is_refused(tmp_path: Path) -> None:
    folder = course_with(tmp_path)
    (folder / "15-loop.md").write_text("---\ntitle: Loop\nkey_idea: &a [*a]\n---\n\n# L\n\nx\n",
                                       encoding="utf-8")
    read = read_course(folder)
    assert [str(p) for p in read.problems] == [
        "lessons/15-loop.md:3:11: invalid front matter: a YAML alias (*name) makes this value "
        "hold itself"]
    assert good_slugs(read) == ["attention", "embeddings"]


def test_front_matter_may_share_a_value_through_an_alias(tmp_path: Path) -> None:
    folder = course_with(tmp_path)
    (folder / "15-shared.md").write_text(
        "---\nslug: &name shared-name\ntitle: *name\n---\n\n## S\n\nText.\n",
        encoding="utf-8")
    read = read_course(folder)
    assert read.problems == ()
    assert [x.title for x in read.course.lessons if x.slug == "shared-name"] == ["shared-name"]


@pytest.mark.parametrize(("name", "text", "message"), [
    ("16-long.md", "---\ntitle: [{}]\n---\n\n# Long\n\nx\n",
     "lessons/16-long.md:2: title must be text, not ['word 0', 'word 1', 'word 2', 'word 3', "
     "'word 4', 'word 5',…; it is ignored"),
    ("16-long.json", '{{"lesson": {{"slug": "long", "title": "Long",\n"position": [{}]}},'
     ' "body": {{"text": "x"}}}}',
     "lessons/16-long.json:2: lesson.position must be a whole number, not ['word 0', 'word 1', "
     "'word 2', 'word 3', 'word 4', 'word 5',…; it is ignored, and the lesson takes its place "
     "from the course file or its file name"),
])
def test_a_warning_quotes_a_long_value_cut_short(tmp_path: Path, name: str, text: str,
                                                 message: str) -> None:
    folder = course_with(tmp_path)
    words = ", ".join(f'"word {n}"' for n in range(5000))
    (folder / name).write_text(text.format(words), encoding="utf-8")
    assert [str(p) for p in read_course(folder).problems] == [message]


# --- Values the index cannot hold ---------------------------------------------------------


def searched(index: Path, query: str) -> list[str]:
    searcher = Searcher.open(index)
    try:
        return [hit.lesson for hit in searcher.search(query).results]
    finally:
        searcher.close()


@pytest.mark.parametrize(("name", "text", "where"), [
    ("17-far.md", "---\ntitle: Far away\nposition: 2147483648\n---\n\n## S\n\nQuasars.\n",
     "3: position must be between -1,000,000 and 1,000,000, not 2147483648"),
    ("17-far.json", '{"lesson": {"slug": "far", "title": "Far away",\n'
     '"position": 1099511627776}, "body": {"text": "## S\\n\\nQuasars."}}',
     "2: lesson.position must be between -1,000,000 and 1,000,000, not 1099511627776"),
])
def test_a_position_the_index_cannot_hold_is_ignored_with_a_warning(
        tmp_path: Path, name: str, text: str, where: str) -> None:
    """Past 32 bits, a position stopped the whole build with a traceback when the index was
    written; it is ignored like a position that is no number, and the lesson indexed."""
    folder = course_with(tmp_path)
    (folder / name).write_text(text, encoding="utf-8")
    report = build_index(folder, None, tmp_path / "index")
    assert [str(p) for p in report.problems] == [
        f"lessons/{name}:{where}; it is ignored, and the lesson takes its place from the "
        "course file or its file name"]
    assert searched(tmp_path / "index", "quasars") == ["far"]


def export_with_half_a_pair(where: str) -> dict:
    """An export whose string at ``where`` holds a lone surrogate, as JSON may write one."""
    export = {"lesson": {"slug": "lone", "title": "Lone halves"},
              "reader": {"blocks": [{"t": "h2", "id": "pairs", "runs": [{"text": "Pairs"}]},
                                    {"t": "p", "runs": [{"text": "Quasars shine."}]}]},
              "check": {"question": "Which shine?", "options": [{"text": "Quasars"}]}}
    parent, key = {"lesson.title": (export["lesson"], "title"),
                   "lesson.slug": (export["lesson"], "slug"),
                   "check.question": (export["check"], "question"),
                   "block id": (export["reader"]["blocks"][0], "id"),
                   "block text": (export["reader"]["blocks"][1]["runs"][0], "text")}[where]
    parent[key] += "\ud800"
    return export


@pytest.mark.parametrize("where", ["lesson.title", "lesson.slug", "check.question", "block id",
                                   "block text"])
def test_half_a_surrogate_pair_in_an_export_is_replaced_with_a_warning(
        tmp_path: Path, where: str) -> None:
    """``"\\ud800"`` is legal JSON but no character: the index and the glossary tables
    could not encode it, and the whole build stopped. It is read as U+FFFD, with a warning
    at its line and column, and the lesson indexed; a whole pair is one character, read
    without a word."""
    folder = course_with(tmp_path)
    text = json.dumps(export_with_half_a_pair(where), indent=1)
    text = text.replace('"Quasars"', '"\\ud83c\\udf1f Quasars"')  # 🌟, as a pair
    (folder / "18-lone.json").write_text(text, encoding="utf-8")
    report = build_index(folder, None, tmp_path / "index")
    at = text.index("\\ud800")
    line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    assert [str(p) for p in report.problems] == [
        f"lessons/18-lone.json:{line}:{column}: a string holds \\ud800, half of a UTF-16 "
        "surrogate pair alone, which is no character; it is read as U+FFFD (\ufffd)"]
    assert set(searched(tmp_path / "index", "quasars")) == {  # its text, and its check
        "lone\ufffd" if where == "lesson.slug" else "lone"}
    lesson = next(x for x in read_course(folder).course.lessons if x.source.endswith(".json"))
    assert lesson.check.options[0].text == "\U0001f31f Quasars"


# --- Files and folders the system will not give --------------------------------------------


@pytest.mark.parametrize(("error", "reason"), [
    (PermissionError(13, "Permission denied"), "Permission denied"),
    (FileNotFoundError(2, "No such file or directory"), "No such file or directory"),
])
def test_a_file_the_system_will_not_give_is_one_sentence_naming_it_once(
        tmp_path: Path, monkeypatch, error: OSError, reason: str) -> None:
    """A file the build may not read (``chmod 000``), or one deleted between listing the
    folder and reading it: the warning said Python's text, which names the file a second
    time by another path (``cannot read: [Errno 13] Permission denied: 'c3/30-perm.md'``).
    (Tests run as root, whom ``chmod`` does not stop: the refusal is the system's, faked.)"""
    folder = course_with(tmp_path)
    (folder / "30-perm.md").write_text("# Perm\n\nText.\n", encoding="utf-8")

    def refuse(path, *args, **kwargs):
        if str(path).endswith("30-perm.md"):
            error.filename = str(path)
            raise error
        return open(path, *args, **kwargs)

    monkeypatch.setattr(course, "open", refuse, raising=False)
    read = read_course(folder)
    assert [str(p) for p in read.problems] == [
        f"lessons/30-perm.md: cannot read this file ({reason}); it was skipped"]
    assert read.skipped == ("lessons/30-perm.md",)
    assert good_slugs(read) == ["attention", "embeddings"]


def test_links_to_nothing_and_a_folder_named_like_a_lesson_are_warnings(tmp_path: Path) -> None:
    """A link in a loop stopped the whole build; a link to nothing and a folder named like
    a lesson file were passed over without a word. Each is a warning at its name, the first
    build's (which reads every file) and the next's (which reads the changed ones) alike. A
    link to a lesson file is read; a link to a folder inside the course is not entered: its
    files are read at their own names."""
    folder = course_with(tmp_path)
    (folder / "21-loop.md").symlink_to("21-loop.md")
    (folder / "22-dangling.md").symlink_to("nowhere.md")
    (folder / "23-folder.md").mkdir()
    (folder / "23-folder.md" / "24-inside.md").write_text("# Inside\n\nQuasars inside.\n",
                                                          encoding="utf-8")
    (folder / "25-linked").symlink_to(folder / "23-folder.md")
    (tmp_path / "26-elsewhere.md").write_text("# Elsewhere\n\nNebulae.\n", encoding="utf-8")
    (folder / "26-elsewhere.md").symlink_to(tmp_path / "26-elsewhere.md")
    expected = [
        "lessons/21-loop.md: cannot read this file (Too many levels of symbolic links); it "
        "was skipped",
        "lessons/22-dangling.md: cannot read this file (it links to 'nowhere.md', which is "
        "not there); it was skipped",
        "lessons/23-folder.md: is a folder, not a lesson file; the files in it are read as "
        "any folder's are"]
    for build in ("first", "next"):
        report = build_index(folder, None, tmp_path / "index")
        assert [str(p) for p in report.problems] == expected, build
        assert report.skipped == 2
        assert sorted(searched(tmp_path / "index", "quasars nebulae")) == ["elsewhere", "inside"]


def test_a_folder_that_cannot_be_opened_is_a_warning(tmp_path: Path, monkeypatch,
                                                     capsys) -> None:
    """A folder the build may not open (``chmod 000``) stopped the whole build: ``Permission
    denied: c3/sub``, exit 1. Its files are skipped with one warning naming it, and the rest
    indexed. (Faked, as ``chmod`` does not stop the root user the tests run as.)"""
    folder = course_with(tmp_path)
    (folder / "sub").mkdir()
    (folder / "sub" / "31-hidden.md").write_text("# Hidden\n\nQuasars.\n", encoding="utf-8")
    scandir = os.scandir

    def refuse(path="."):
        if str(path).endswith("sub"):
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(course.os, "scandir", refuse)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["index", "--lessons", str(folder), "--out", str(tmp_path / "index")]) == 0
    assert "warning: lessons/sub: cannot read this folder (Permission denied); the files in it " \
           "were skipped\n" in capsys.readouterr().err
    assert searched(tmp_path / "index", "attention") == ["attention"]


# --- Every broken file at once, through the build and the CLI --------------------------------


def test_every_broken_file_in_one_course() -> None:
    read = read_course(BAD / "lessons")
    assert sorted(p.path for p in read.problems) == sorted(f"lessons/{n}"
                                                           for n in (*CASES, WARNED))
    assert sorted(read.skipped) == sorted(f"lessons/{n}" for n in CASES)
    assert good_slugs(read) == ["attention", "embeddings", "position-seven"]


def test_build_indexes_the_rest_and_counts_skipped_files(tmp_path: Path) -> None:
    report = build_index(BAD / "lessons", None, tmp_path / "index")
    assert (report.lessons, report.skipped, report.warnings) == (3, len(CASES), len(CASES) + 1)
    assert f"{len(CASES)} skipped files" in report.summary()
    searcher = Searcher.open(tmp_path / "index")
    try:
        assert searcher.manifest["counts"]["skipped"] == len(CASES)
        assert searcher.search("vectors").results[0].lesson == "embeddings"
        assert searcher.search("relevant").results[0].lesson == "attention"
    finally:
        searcher.close()


@pytest.mark.parametrize(("strict", "code"), [(False, 0), (True, 1)])
def test_cli_exit_code_and_warnings(tmp_path: Path, capsys, monkeypatch, strict: bool,
                                    code: int) -> None:
    monkeypatch.chdir(tmp_path)  # no ./glossary here: the course is read without one
    argv = ["index", "--lessons", str(BAD / "lessons"), "--out", str(tmp_path / "index")]
    assert cli.main(argv + (["--strict"] if strict else [])) == code
    out, err = capsys.readouterr()
    warnings = [line for line in err.splitlines() if line.startswith("warning: ")]
    for name in (*CASES, WARNED):
        assert sum(f"lessons/{name}" in line for line in warnings) == 1, name
    assert "warning: lessons/06-latin1.txt:3:6: not UTF-8 text" in err
    summary = out.strip().splitlines()
    assert len(summary) == 1
    assert ("Read 3 lessons" if strict else "Indexed 3 lessons") in summary[0]
    assert f"{len(CASES)} skipped files" in summary[0]
    # The strict run exits 1 without publishing: no live index moves to the broken course.
    assert (tmp_path / "index" / "current" / "manifest.json").is_file() is not strict


def test_strict_passes_on_a_clean_course(tmp_path: Path, tiny_course: Path, capsys) -> None:
    argv = ["index", "--lessons", str(tiny_course / "lessons"),
            "--glossary", str(tiny_course / "glossary"), "--out", str(tmp_path / "i"), "--strict"]
    assert cli.main(argv) == 0
    assert "warning:" not in capsys.readouterr().err


def test_a_rule_pair_around_prose_at_the_top_is_read_not_skipped(tmp_path: Path) -> None:
    """Two rules around a paragraph look like front matter to markdown-it; with no ``key:``
    line in between they are rules, and the lesson is indexed, its prose too."""
    folder = course_with(tmp_path)
    (folder / "03-ruled.md").write_text("---\n\nIntro prose.\n\n---\n\n## S\n\nText.\n",
                                        encoding="utf-8")
    build_index(folder, None, tmp_path / "index")
    searcher = Searcher.open(tmp_path / "index")
    try:
        assert [h.lesson for h in searcher.search("intro prose").results] == ["ruled"]
    finally:
        searcher.close()
    assert read_course(folder).problems == ()


# --- Duplicates and slug collisions -------------------------------------------------------------


def test_the_same_lesson_twice_is_indexed_once_from_the_json() -> None:
    read = read_course(BAD / "duplicate")
    assert [(x.slug, x.source) for x in read.course.lessons] == [
        ("logits", "duplicate/01-logits.json"),
        ("other", "duplicate/02-other.md"),
    ]
    assert len(read.problems) == 1
    problem = read.problems[0]
    assert problem.path == "duplicate/01-logits-copy.txt"
    assert "duplicate/01-logits.json" in problem.message
    assert not problem.skipped  # nothing was wrong with the file itself


@pytest.mark.parametrize("copy_name", ["00-first.txt", "01-logits.txt", "99-last.txt"])
def test_json_wins_whichever_file_is_read_first(tmp_path: Path, copy_name: str) -> None:
    shutil.copy(BAD / "duplicate" / "01-logits.json", tmp_path / "01-logits.json")
    shutil.copy(BAD / "duplicate" / "01-logits-copy.txt", tmp_path / copy_name)
    read = read_course(tmp_path)
    assert [(x.slug, x.format) for x in read.course.lessons] == [("logits", "json")]
    assert len(read.problems) == 1
    assert copy_name in read.problems[0].path
    assert "01-logits.json" in read.problems[0].message
    # The kept lesson is the export, anchors and all.
    assert [s.anchor for s in read.course.lessons[0].sections] == [
        "raw-scores", "turning-scores-into-odds",
    ]


def test_markdown_beats_plain_text(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(
        "Logits before softmax\n\nRaw scores\n\nThe last layer emits one raw score.\n",
        encoding="utf-8",
    )
    (tmp_path / "b.md").write_text(
        "# Logits before softmax\n\n## Raw scores\n\nThe last layer emits one raw score.\n",
        encoding="utf-8",
    )
    read = read_course(tmp_path)
    assert [x.format for x in read.course.lessons] == ["markdown"]
    assert len(read.problems) == 1


def test_a_shared_title_alone_is_not_a_duplicate(tmp_path: Path) -> None:
    """Courses repeat titles ("Summary") across modules: different words, both lessons stay."""
    (tmp_path / "03-summary.md").write_text(
        "---\ntitle: Summary\n---\n\n## What we covered\n\n"
        "Tokens, vocabularies and how text becomes numbers for the model.\n",
        encoding="utf-8",
    )
    (tmp_path / "07-summary.md").write_text(
        "---\ntitle: Summary\n---\n\n## What we covered\n\n"
        "Sampling, temperature and why one prompt gives different answers.\n",
        encoding="utf-8",
    )
    read = read_course(tmp_path)
    assert [(x.slug, x.source) for x in read.course.lessons] == [
        ("summary", f"{tmp_path.name}/03-summary.md"),
        ("summary-2", f"{tmp_path.name}/07-summary.md"),
    ]
    assert len(read.problems) == 1
    assert "indexed as 'summary-2'" in read.problems[0].message


def review(slug: str, position: int, subject: str) -> str:
    """A short "Review" page: ten words, most of them the same on every such page."""
    return (f"---\ntitle: Review\nslug: {slug}\nposition: {position}\n---\n\n## Review\n\n"
            f"In this module we looked at how {subject} works.\n")


def test_short_pages_sharing_a_title_and_most_words_both_stay(tmp_path: Path) -> None:
    """Two Markdown "Review" pages with slugs and positions of their own: two lessons, not
    one exported twice, though more than 40% of their few words match."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "03-review.md").write_text(review("review", 3, "tokenization"), encoding="utf-8")
    (lessons / "06-review.md").write_text(review("review-2", 6, "sampling"), encoding="utf-8")
    build_index(lessons, None, tmp_path / "index")
    searcher = Searcher.open(tmp_path / "index")
    try:
        assert [h.lesson for h in searcher.search("sampling").results] == ["review-2"]
        assert [h.lesson for h in searcher.search("tokenization").results] == ["review"]
    finally:
        searcher.close()
    read = read_course(lessons)
    assert [(x.slug, x.position) for x in read.course.lessons] == [("review", 3),
                                                                  ("review-2", 6)]
    assert read.problems == ()


@pytest.mark.parametrize("names", [
    ("part-1/summary.md", "part-2/summary.md"),  # one format, nothing else to tell them apart
    ("part-1/summary.txt", "part-2/summary.txt"),
])
def test_same_format_pages_sharing_a_title_are_two_lessons(tmp_path: Path, names) -> None:
    words = ("Tokens and vocabularies were this part's topic.",
             "Sampling and temperature were this part's topic.")
    for name, text in zip(names, words, strict=True):
        (tmp_path / name).parent.mkdir()
        body = (f"---\ntitle: Summary\n---\n\n{text}\n" if name.endswith(".md")
                else f"Summary\n\n{text}\n")
        (tmp_path / name).write_text(body, encoding="utf-8")
    read = read_course(tmp_path)
    assert [x.slug for x in read.course.lessons] == ["summary", "summary-2"]
    assert [p.message for p in read.problems] == [
        f"slug 'summary' is also used by {tmp_path.name}/part-1/{Path(names[0]).name}; "
        "this lesson is indexed as 'summary-2'"]


def test_an_export_and_a_copy_at_different_positions_are_two_lessons(tmp_path: Path) -> None:
    """Each says where it belongs in the course, and the places differ."""
    export = {"lesson": {"slug": "quiz", "title": "Quiz", "position": 4},
              "body": {"text": "## Quiz\n\nCheck what you know about tokens."}}
    (tmp_path / "04-quiz.json").write_text(json.dumps(export), encoding="utf-8")
    (tmp_path / "09-quiz.md").write_text(
        "---\ntitle: Quiz\nposition: 9\n---\n\n## Quiz\n\nCheck what you know about sampling.\n",
        encoding="utf-8")
    read = read_course(tmp_path)
    assert [(x.slug, x.format) for x in read.course.lessons] == [("quiz", "json"),
                                                                ("quiz-2", "markdown")]


def test_a_file_copied_in_one_format_is_still_one_lesson(tmp_path: Path) -> None:
    text = ("---\ntitle: Review\n---\n\n## Review\n\n"
            "In this module we looked at how sampling works.\n")
    (tmp_path / "06-review.md").write_text(text, encoding="utf-8")
    (tmp_path / "06-review copy.md").write_text(text, encoding="utf-8")
    read = read_course(tmp_path)
    assert len(read.course.lessons) == 1
    problem, = read.problems
    assert {problem.path, read.course.lessons[0].source} == {
        f"{tmp_path.name}/06-review.md", f"{tmp_path.name}/06-review copy.md"}
    assert problem.message.startswith("same lesson as ")


def test_duplicate_is_searchable_once(tmp_path: Path) -> None:
    build_index(BAD / "duplicate", None, tmp_path / "index")
    searcher = Searcher.open(tmp_path / "index")
    try:
        hits = searcher.search("exponentiates").results
        assert [(h.lesson, h.anchor) for h in hits] == [("logits", "turning-scores-into-odds")]
    finally:
        searcher.close()


def test_colliding_slugs_both_stay() -> None:
    read = read_course(BAD / "collision")
    lessons = {x.source: x for x in read.course.lessons}
    assert lessons["collision/01-intro.md"].slug == "intro"
    assert lessons["collision/02-intro.txt"].slug == "intro-2"
    assert len({x.url for x in read.course.lessons}) == 2
    assert len(read.problems) == 1
    problem = read.problems[0]
    assert problem.path == "collision/02-intro.txt"
    assert "collision/01-intro.md" in problem.message
    assert "'intro-2'" in problem.message
    assert not problem.skipped


def test_colliding_json_slugs_keep_both(tmp_path: Path) -> None:
    for name, title in (("a.json", "Attention heads"), ("b.json", "Batch sizes")):
        export = {"lesson": {"slug": "same", "title": title},
                  "body": {"text": f"## {title}\n\nWords only {title.lower()} would use."}}
        (tmp_path / name).write_text(json.dumps(export), encoding="utf-8")
    read = read_course(tmp_path)
    assert sorted(x.slug for x in read.course.lessons) == ["same", "same-2"]
    assert len(read.problems) == 1
