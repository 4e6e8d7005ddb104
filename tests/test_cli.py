"""The ``lessonsearch`` command end to end: real processes, temporary folders, exit codes."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from web_fixtures import serving

from lessonsearch import responses
from lessonsearch.index_store import build_lock, current_version, read_manifest
from lessonsearch.searcher import MAX_LIMIT, MAX_PAGE, Searcher

BAD = Path(__file__).resolve().parent / "data" / "bad" / "lessons"
SUMMARY = re.compile(
    r"^Indexed (?P<lessons>\d+) lessons, (?P<sections>\d+) sections, (?P<terms>\d+) terms; "
    r"(?P<warnings>\d+) warnings, (?P<skipped>\d+) skipped files; (?P<seconds>\d+\.\d+) s "
    r"\(version (?P<version>v-[\w-]+); (?:[^;()]+; )*(?P<rewritten>\d+) of (?P=lessons) lessons "
    r"rewritten\)$"
)
UNCHANGED = re.compile(
    r"^Read (?P<lessons>\d+) lessons, (?P<sections>\d+) sections, (?P<terms>\d+) terms; "
    r"(?P<warnings>\d+) warnings, (?P<skipped>\d+) skipped files; (?P<seconds>\d+\.\d+) s "
    r"\(nothing changed: version (?P<version>v-[\w-]+) stays live\)$"
)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("LESSONSEARCH_INDEX", None)
    return subprocess.run(
        [sys.executable, "-m", "lessonsearch.cli", *args],
        cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8", timeout=120,
    )


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr
    assert "Traceback" not in result.stdout


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory, tiny_course: Path) -> Path:
    """A project folder laid out as ``make run`` expects: lessons/, glossary/, then index/."""
    folder = tmp_path_factory.mktemp("cli")
    shutil.copytree(tiny_course / "lessons", folder / "lessons")
    shutil.copytree(tiny_course / "glossary", folder / "glossary")
    return folder


@pytest.fixture(scope="module")
def indexed(workdir: Path) -> subprocess.CompletedProcess[str]:
    """``lessonsearch index`` with every default: ./lessons, ./glossary → ./index."""
    return run("index", cwd=workdir)


@pytest.fixture(scope="module")
def searcher(workdir: Path, indexed):
    opened = Searcher.open(workdir / "index")
    yield opened
    opened.close()


# --- index -----------------------------------------------------------------------------------


def test_a_rebuild_with_nothing_new_loads_neither_the_query_side_nor_all_of_nltk(
        tmp_path: Path, tiny_course: Path) -> None:
    """Half of a one-lesson ``index`` run was importing: NLTK (for jargon candidates, which
    the rebuild takes from the previous version) and the searcher. NLTK is never imported
    in full; its collocation finders only when candidates are found."""
    shutil.copytree(tiny_course, tmp_path / "course")
    code = ("import sys; from lessonsearch.cli import main; main(['index', '--lessons', "
            "'course/lessons', '--glossary', 'course/glossary', '--out', 'index']); "
            "from lessonsearch.nltk_parts import collocation_parts; "
            "print(sorted(m for m in ('nltk', 'lessonsearch.searcher', 'whoosh.qparser') "
            "if m in sys.modules), collocation_parts.cache_info().currsize)")

    def loaded() -> str:
        result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                                text=True, timeout=120, check=True)
        return result.stdout.splitlines()[-1]

    assert loaded() == "[] 1"  # the first build finds candidates
    assert loaded() == "[] 0"


def test_index_prints_one_summary_line(workdir: Path, indexed) -> None:
    assert indexed.returncode == 0, indexed.stderr
    lines = indexed.stdout.splitlines()
    assert len(lines) == 1
    match = SUMMARY.match(lines[0])
    assert match, lines[0]
    manifest = read_manifest(current_version(workdir / "index"))
    counts = manifest["counts"]
    assert int(match["lessons"]) == counts["lessons"] == 4
    assert int(match["sections"]) == counts["sections"] == 13
    assert int(match["terms"]) == counts["terms"]
    assert (int(match["warnings"]), int(match["skipped"])) == (0, 0)
    assert match["version"] == manifest["version"]
    # Progress and nothing else on stderr for a clean course.
    assert "warning:" not in indexed.stderr
    assert "read 4/4 lesson files" in indexed.stderr
    no_traceback(indexed)


def test_a_folder_that_cannot_be_written_is_one_sentence(tmp_path: Path,
                                                          tiny_course: Path) -> None:
    """The file system's own refusal (here a file where a folder must go; a full disk and a
    read-only folder alike) printed a traceback of 60 lines."""
    (tmp_path / "taken").write_text("a file, not a folder\n")
    result = run("index", "--lessons", str(tiny_course / "lessons"),
                 "--out", str(tmp_path / "taken" / "index"), cwd=tmp_path)
    assert result.returncode == 1
    no_traceback(result)
    assert result.stderr.splitlines()[-1] == (
        f"lessonsearch: Not a directory: {tmp_path / 'taken' / 'index'}; the live index was "
        "not changed")


def test_a_missing_file_the_system_names_is_one_sentence_too(tmp_path: Path, monkeypatch,
                                                              capsys) -> None:
    """``--out /proc/idx`` printed Python's "[Errno 2] No such file or directory: …", without
    saying the live index was not changed; the build's own "No lessons folder" stays as is."""
    from lessonsearch import build
    from lessonsearch.cli import main

    def refused(*args, **kwargs):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", "/proc/idx")

    monkeypatch.setattr(build, "build_index", refused)
    assert main(["index", "--lessons", str(tmp_path), "--out", "/proc/idx"]) == 1
    assert capsys.readouterr().err == (
        "lessonsearch: No such file or directory: /proc/idx; the live index was not changed\n")
    monkeypatch.undo()
    assert main(["index", "--lessons", str(tmp_path / "nope"), "--out", str(tmp_path)]) == 1
    assert capsys.readouterr().err.endswith(f"No lessons folder at {tmp_path / 'nope'}\n")

@pytest.mark.parametrize("inside", ["index", "build/index"])
def test_an_index_inside_the_lessons_folder_is_not_read_as_lessons(
        tmp_path: Path, tiny_course: Path, capsys, inside: str) -> None:
    """``--out lessons/index`` read the index's own files as lessons on every later build:
    twelve warnings for each version kept (manifest.json "lesson is missing", unknown file
    type .pickle), so ``--strict`` could never pass. They are not the course's."""
    from lessonsearch.cli import main

    course = shutil.copytree(tiny_course, tmp_path / "course")
    lessons = course / "lessons"
    argv = ["index", "--lessons", str(lessons), "--glossary", str(course / "glossary"),
            "--out", str(lessons / inside), "--strict"]
    for _ in range(3):
        assert main(argv) == 0
        assert "warning:" not in capsys.readouterr().err
    (lessons / "99-new.md").write_text(  # in a module, as the course file's lessons are
        "---\nmodule: memory\n---\n# New\n\n## Nebulae\n\nNebulae glow.\n", encoding="utf-8")
    assert main([*argv, "--full"]) == 0
    assert "Indexed 5 lessons" in capsys.readouterr().out


def test_an_index_folder_inside_the_lessons_holding_lessons_is_refused(
        tmp_path: Path, tiny_course: Path, capsys) -> None:
    """``--out lessons/sub``, where ``sub`` held a lesson, indexed the course without it and
    said nothing: the index's folder is not read as lessons. A folder that holds only an
    index's own files (``current``, its versions, hidden files) is built into as before."""
    from lessonsearch.cli import main

    course = shutil.copytree(tiny_course, tmp_path / "course")
    lessons = course / "lessons"
    (lessons / "sub").mkdir()
    (lessons / "sub" / "s.md").write_text("# Sub\n\n## Nebulae\n\nNebulae glow.\n",
                                          encoding="utf-8")
    argv = ["index", "--lessons", str(lessons), "--glossary", str(course / "glossary")]
    out = lessons / "sub"
    assert main([*argv, "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"lessonsearch: --out {out} is inside the lessons folder and holds files that are "
        "not an index's (s.md): they would not be read as lessons. Choose an empty folder "
        "or one outside the lessons folder, such as index/ beside it.\n")
    assert sorted(path.name for path in out.iterdir()) == ["s.md"]
    (out / ".notes").write_text("hidden files are not lessons\n", encoding="utf-8")
    (out / "s.md").unlink()
    assert main([*argv, "--out", str(out)]) == 0
    assert "Indexed 4 lessons" in capsys.readouterr().out
    assert main([*argv, "--out", str(out), "--full"]) == 0  # beside its version and current
    assert "Indexed 4 lessons" in capsys.readouterr().out


@pytest.mark.parametrize("kind", ["lessons", "glossary"])
def test_an_index_folder_that_is_the_course_is_refused(tmp_path: Path, tiny_course: Path,
                                                       capsys, kind: str) -> None:
    """``--out`` naming the lessons (or glossary) folder itself wrote ``current`` and the
    versions among the course's files."""
    from lessonsearch.cli import main

    course = shutil.copytree(tiny_course, tmp_path / "course")
    before = sorted(path.name for path in (course / kind).iterdir())
    out = course / kind / "."
    assert main(["index", "--lessons", str(course / "lessons"), "--glossary",
                 str(course / "glossary"), "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"lessonsearch: --out {out} is the {kind} folder: the index would be written among "
        "the course's own files. Choose another folder, such as index/ beside it.\n")
    assert sorted(path.name for path in (course / kind).iterdir()) == before


def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path) -> None:
    result = run("serve", "--port", "99999", cwd=tmp_path)
    assert result.returncode == 2
    assert "argument --port: at most 65535, not '99999'" in result.stderr
    no_traceback(result)


@pytest.mark.parametrize(("option", "value"), [("--workers", "0"), ("--threads", "0"),
                                               ("--workers", "-3"), ("--threads", "two")])
def test_workers_and_threads_below_one_are_usage_errors(tmp_path: Path, option: str,
                                                        value: str) -> None:
    """0 quietly became the default; -3 got gunicorn's own error. (The bad port after it
    stops the command, should the value be let through, before it serves.)"""
    result = run("serve", option, value, "--port", "99999", cwd=tmp_path)
    assert result.returncode == 2
    assert f"argument {option}: a whole number of at least 1, not '{value}'" in result.stderr
    no_traceback(result)

@pytest.mark.parametrize("url", ["//evil.example/", "javascript:alert(1)"])
def test_a_base_url_that_is_no_web_link_is_a_usage_error(tmp_path: Path, url: str) -> None:
    """It was a warning among the lessons', and the build went on without it."""
    result = run("index", "--lessons", str(BAD), "--out", "idx", "--base-url", url,
                 cwd=tmp_path)
    assert result.returncode == 2
    assert f"argument --base-url: the base URL {url!r} is not a web link" in result.stderr
    assert not (tmp_path / "idx").exists()
    no_traceback(result)


def test_index_warnings_and_strict(tmp_path: Path) -> None:
    args = ("index", "--lessons", str(BAD), "--out", "idx")  # no ./glossary: none is read
    relaxed = run(*args, cwd=tmp_path)
    assert relaxed.returncode == 0
    warnings = [x for x in relaxed.stderr.splitlines() if x.startswith("warning: ")]
    assert len(warnings) == 9
    assert all("lessons/" in w for w in warnings)
    assert "warning: lessons/03-invalid.json:3:3: invalid JSON" in relaxed.stderr
    match = SUMMARY.match(relaxed.stdout.strip())
    # 05-position-seven.json is indexed, its position ignored with a warning
    assert match and (match["lessons"], match["warnings"], match["skipped"]) == ("3", "9", "8")
    assert "warning:" not in relaxed.stdout
    live = os.readlink(tmp_path / "idx" / "current")
    again = run(*args, cwd=tmp_path)  # nothing changed: the same warnings, the same version
    assert again.returncode == 0
    assert [x for x in again.stderr.splitlines() if x.startswith("warning: ")] == warnings
    match = UNCHANGED.match(again.stdout.strip())
    assert match and (match["lessons"], match["warnings"], match["skipped"]) == ("3", "9", "8")
    assert match["version"] == live == os.readlink(tmp_path / "idx" / "current")
    strict = run(*args, "--strict", cwd=tmp_path)
    assert strict.returncode == 1
    assert strict.stdout.startswith("Read 3 lessons, ")
    assert strict.stdout.rstrip().endswith(
        "(not published under --strict: the live index is unchanged)")
    assert os.readlink(tmp_path / "idx" / "current") == live
    assert sorted(p.name for p in (tmp_path / "idx").glob("v-*")) == [live]
    no_traceback(strict)


def test_index_again_with_nothing_changed_keeps_the_live_version(tmp_path: Path,
                                                                tiny_course: Path) -> None:
    shutil.copytree(tiny_course, tmp_path / "course")
    args = ("index", "--lessons", "course/lessons", "--glossary", "course/glossary",
            "--out", "idx")
    first = SUMMARY.match(run(*args, cwd=tmp_path).stdout.strip())
    assert first
    again = run(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    match = UNCHANGED.match(again.stdout.strip())
    assert match, again.stdout
    assert (match["lessons"], match["sections"], match["terms"]) == (
        first["lessons"], first["sections"], first["terms"])
    assert match["version"] == first["version"] == os.readlink(tmp_path / "idx" / "current")
    assert [p.name for p in (tmp_path / "idx").glob("v-*")] == [first["version"]]
    full = SUMMARY.match(run(*args, "--full", cwd=tmp_path).stdout.strip())
    assert full and full["version"] != first["version"]  # --full always publishes
    assert full["rewritten"] == full["lessons"]  # and reads every lesson again
    assert os.readlink(tmp_path / "idx" / "current") == full["version"]
    no_traceback(again)


def test_index_base_url(tmp_path: Path, tiny_course: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    shutil.copy(tiny_course / "lessons" / "03-kv-cache.txt", lessons)
    result = run("index", "--lessons", "lessons", "--out", "idx",
                 "--base-url", "https://flag.example.test/learn/", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    manifest = read_manifest(current_version(tmp_path / "idx"))
    assert manifest["lessons"][0]["url"] == "https://flag.example.test/learn/kv-cache"


def test_index_without_a_lessons_folder(tmp_path: Path) -> None:
    result = run("index", "--lessons", "missing", "--out", "idx", cwd=tmp_path)
    assert result.returncode == 1
    assert "lessonsearch: No lessons folder at missing" in result.stderr
    no_traceback(result)


def test_index_with_a_glossary_folder_that_is_missing(tmp_path: Path, tiny_course: Path) -> None:
    """Named with --glossary, a folder that is not there is an error, as --lessons is: a
    typo must not quietly publish an index without the glossary."""
    shutil.copytree(tiny_course, tmp_path / "course")
    for strict in ((), ("--strict",)):
        result = run("index", "--lessons", "course/lessons", "--glossary", "course/noglossary",
                     "--out", "idx", *strict, cwd=tmp_path)
        assert result.returncode == 1
        assert "lessonsearch: No glossary folder at course/noglossary" in result.stderr
        assert result.stdout == ""
        assert not (tmp_path / "idx" / "current").exists()
        no_traceback(result)


def test_index_while_another_build_runs(tmp_path: Path, tiny_course: Path) -> None:
    with build_lock(tmp_path / "idx"):
        result = run("index", "--lessons", str(tiny_course / "lessons"), "--out", "idx",
                     cwd=tmp_path)
    assert result.returncode == 1
    assert "lessonsearch: Another build is writing to idx" in result.stderr
    assert not (tmp_path / "idx" / "current").exists()
    no_traceback(result)


def test_no_command_prints_help(tmp_path: Path) -> None:
    result = run(cwd=tmp_path)
    assert result.returncode == 2
    assert "usage: lessonsearch" in result.stdout


# --- search ----------------------------------------------------------------------------------


def test_search_json_is_exactly_the_api_body(workdir: Path, indexed, searcher) -> None:
    result = run("search", "temperature", "--json", cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == responses.search_body(searcher.search("temperature"))


def test_search_json_with_options(workdir: Path, indexed, searcher) -> None:
    result = run("search", "token", "--json", "--limit", "2", "--page", "2",
                 "--module", "basics", cwd=workdir)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body == responses.search_body(searcher.search("token", 2, 2, module="basics"))
    assert (body["page"], body["limit"]) == (2, 2)
    assert all(hit["module"] == "basics" for hit in body["results"])


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--limit", "0", "a whole number of at least 1, not '0'"),
    ("--limit", "-3", "a whole number of at least 1, not '-3'"),
    ("--limit", "ten", "a whole number of at least 1, not 'ten'"),
    ("--limit", " 5", "a whole number of at least 1, not ' 5'"),  # the API's limit=%205
    ("--page", "2 ", "a whole number of at least 1, not '2 '"),
    ("--page", "0", "a whole number of at least 1, not '0'"),
    ("--page", str(MAX_PAGE + 1), f"at most {MAX_PAGE}, not '{MAX_PAGE + 1}'"),
    ("--page", "9" * 5000, "at most 1000"),
])
def test_search_refuses_what_the_api_refuses(workdir: Path, indexed, option: str, value: str,
                                             says: str) -> None:
    """``--limit 0`` once showed one result where the API answers 400."""
    result = run("search", "softmax", option, value, cwd=workdir)
    assert result.returncode == 2
    assert f"error: argument {option}: {says}" in result.stderr
    assert result.stdout == ""
    no_traceback(result)


@pytest.mark.parametrize("value", [" 3", "3 ", "0", "٣", "some"])
def test_coverage_lessons_refuses_what_the_api_refuses(workdir: Path, indexed, value: str) -> None:
    result = run("coverage", "--lessons", value, cwd=workdir)
    assert result.returncode == 2
    assert f"error: argument --lessons: a whole number of at least 1, or all, not {value!r}" \
        in result.stderr
    no_traceback(result)


@pytest.mark.parametrize("filters", [
    {"lesson": "nope"}, {"module": "nope"}, {"lesson": "kv-cache", "module": "nope"},
])
def test_search_refuses_an_unknown_filter_as_the_api_does(workdir: Path, indexed,
                                                          filters: dict[str, str]) -> None:
    """A typo in ``--lesson`` once printed "0 results" and exited 0, where the API answers
    400: the course does say it, in lessons the filter left out."""
    options = [part for name, slug in filters.items() for part in (f"--{name}", slug)]
    with serving(workdir / "index") as client:
        answer = client.get("/api/search", query_string={"q": "token", **filters})
    assert answer.status_code == 400
    result = run("search", "token", "--json", *options, cwd=workdir)
    assert result.returncode == 1
    assert json.loads(result.stdout) == answer.get_json()
    assert answer.get_json()["error"].startswith("No module 'nope' in this course;"
                                                 if "module" in filters
                                                 else "No lesson 'nope' in this course;")
    result = run("search", "token", *options, cwd=workdir)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == f"lessonsearch: {answer.get_json()['error']}\n"
    no_traceback(result)


def test_search_json_refuses_an_empty_query_with_the_apis_body(workdir: Path, indexed) -> None:
    result = run("search", "   ", "--json", cwd=workdir)
    assert result.returncode == 1
    assert json.loads(result.stdout) == {
        "error": "The query is empty: type one or more words to search for."}


def test_search_over_the_word_limit_searches_the_first_64_saying_so(workdir: Path,
                                                                     indexed) -> None:
    """A pasted paragraph of more than 64 words and phrases was refused; its first 64 are
    searched, and the output and ``--json`` say the rest were left out, as the API does."""
    query = "token " * 64 + 'zebra "the model"'
    notice = ("Searched the first 64 words and phrases of 66; the rest were left out, among "
              "them 1 phrase.")
    result = run("search", query, cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(notice + "\n")
    whole = run("search", "token " * 64, cwd=workdir).stdout
    assert result.stdout.split("\n")[1:-2] == whole.split("\n")[:-2]  # the same results
    body = json.loads(run("search", query, "--json", cwd=workdir).stdout)
    assert body["left_out"] == {"searched": 64, "written": 66, "excluded": 0, "phrases": 1,
                                "error": None, "notice": notice}
    assert json.loads(run("search", "token " * 64, "--json", cwd=workdir).stdout)[
        "left_out"] is None


def test_search_refuses_a_query_over_the_phrase_limit_as_the_api_does(workdir: Path,
                                                                      indexed) -> None:
    result = run("search", " ".join(f'"the {w}"' for w in "abcdefghi"), cwd=workdir)
    assert result.returncode == 1
    assert result.stderr.startswith("lessonsearch: Too many phrases: the query has 9 ")
    assert "at most 8 are searched" in result.stderr


def test_search_takes_the_apis_largest_page_and_caps_the_limit(workdir: Path, indexed) -> None:
    result = run("search", "token", "--json", "--page", str(MAX_PAGE), "--limit", "500",
                 cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert (json.loads(result.stdout)["page"], json.loads(result.stdout)["limit"]) == (
        MAX_PAGE, MAX_LIMIT)


def test_search_human_output(workdir: Path, indexed, searcher) -> None:
    result = run("search", "calculation", cwd=workdir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "1. Sampling and temperature › Why does “temperature” matter?"
    assert lines[1].strip() == "https://courses.example.test/tiny/sampling#why-temp"
    assert "calculated choices" in lines[2]
    assert "<mark>" not in result.stdout  # no HTML on a terminal
    assert searcher.search("calculation").total == 1
    assert lines[-1] == "1-1 of 1 result for 'calculation'"


def test_search_past_the_last_page_says_so(workdir: Path, indexed, searcher) -> None:
    """As the results page says it: "2 results for 'crema'" alone, with none listed, left the
    reader to guess why; the JSON body stays the API's (no results, the total)."""
    total = searcher.search("token", 2).total
    assert total > 2
    pages = -(-total // 2)
    result = run("search", "token", "--limit", "2", "--page", "999", cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert (f"There is no page 999 of these results; they fit on {pages} pages "
            f"(--page {pages} shows the last).") in result.stdout.splitlines()
    assert result.stdout.splitlines()[-1] == f"{total} results for 'token'"
    one = run("search", "calculation", "--page", "3", cwd=workdir)
    assert "There is no page 3 of these results; they fit on one page." in one.stdout
    body = json.loads(run("search", "token", "--json", "--page", "999", cwd=workdir).stdout)
    assert body["results"] == [] and body["total"] == searcher.search("token").total


def test_search_human_output_names_terms_and_corrections(workdir: Path, indexed) -> None:
    result = run("search", "temprature", cwd=workdir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("[term] temperature: A number that divides the scores")
    assert lines[1] == "Showing results for temperature"  # "temprature" finds nothing
    assert lines[2].startswith("1. Sampling and temperature")
    result = run("search", "temperature", cwd=workdir)
    assert result.stdout.startswith("[term] temperature: A number that divides the scores")


def test_search_human_output_says_what_it_searched_for_a_word_made_from_another(
        workdir: Path, indexed) -> None:
    """The tiny course writes count and counting, never counter: not a slip, so no "Did you
    mean". It writes sampling, as a noun, never sample: a sampler is not searched as it."""
    result = run("search", "counter", cwd=workdir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "No results for counter; showing results for count."
    assert lines[1].startswith("1. ") and "Did you mean" not in result.stdout
    result = run("search", "sampler", cwd=workdir)
    assert "showing results for" not in result.stdout


def test_an_empty_filter_is_no_filter(workdir: Path, indexed, searcher) -> None:
    result = run("search", "token", "--json", "--lesson", "", "--module", "", cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total"] == searcher.search("token").total


def test_search_a_lesson_without_headings(workdir: Path, indexed) -> None:
    result = run("search", "repeated prefixes", "--lesson", "notes", cwd=workdir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "1. Notes on long prompts"
    assert lines[1].strip().startswith("https://courses.example.test/tiny/notes#:~:text=")


def test_search_with_no_results(workdir: Path, indexed) -> None:
    result = run("search", "xylophone", cwd=workdir)
    assert result.returncode == 0
    assert result.stdout.strip().endswith("0 results for 'xylophone'")


def test_an_option_after_dashes_is_named_with_the_command_written_right(workdir: Path,
                                                                       indexed) -> None:
    """After ``--`` every argument is a query: ``search -- "-water" --index X`` said only
    "unrecognized arguments: --index X". The error says to put options first, and the
    command it shows, run, searches."""
    result = run("search", "--", "-cache tokens", "--limit", "2", "--json", cwd=workdir)
    assert result.returncode == 2
    said = result.stderr.splitlines()[-1]
    assert said == ("lessonsearch search: error: --limit is after '--', which makes every "
                    "argument after it a query or a name: put options before it "
                    "(lessonsearch search --limit 2 --json -- '-cache tokens')")
    rewritten = run("search", "--limit", "2", "--json", "--", "-cache tokens", cwd=workdir)
    assert rewritten.returncode == 0, rewritten.stderr
    assert json.loads(rewritten.stdout)["query"] == "-cache tokens"
    other = run("search", "--", "-cache", "tokens", cwd=workdir)  # no option: argparse's words
    assert other.returncode == 2 and "unrecognized arguments: tokens" in other.stderr


def test_search_refuses_an_empty_query(workdir: Path, indexed) -> None:
    result = run("search", "   ", cwd=workdir)
    assert result.returncode == 1
    assert result.stderr.startswith("lessonsearch: The query is empty")
    no_traceback(result)


def test_search_refuses_a_query_with_no_word_saying_so(workdir: Path, indexed) -> None:
    """``search '?'`` printed nothing at all and exited 0, as a search the course has no
    answer to."""
    result = run("search", "--", "( ? )", cwd=workdir)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == ("lessonsearch: The query has no word to search for (( ? )): type "
                             "one or more words, as in: KV cache.\n")
    as_json = run("search", "--json", "--", '""', cwd=workdir)
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout) == {
        "error": 'The query has no word to search for (""): type one or more words, as in: '
                 "KV cache."}
    word = run("search", "--json", "--", "NOT", cwd=workdir)
    assert word.returncode == 0 and json.loads(word.stdout)["total"] > 0  # the word not


# --- term and terms -------------------------------------------------------------------------------


def test_term(workdir: Path, indexed, searcher) -> None:
    result = run("term", "KV cache", cwd=workdir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("KV cache")
    assert "key-value cache" in lines[0]  # the aliases
    assert "The stored keys and values of earlier tokens" in lines[1]
    assert "source: " in result.stdout
    assert re.search(r"mentioned \d+ times in \d+ sections", result.stdout)


def test_term_by_alias_json(workdir: Path, indexed, searcher) -> None:
    result = run("term", "key-value cache", "--json", cwd=workdir)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    glossary = searcher.glossary
    assert body == responses.term_body(glossary.with_mentions(glossary.look_up("KV cache")))
    assert body["term"] == "KV cache"
    assert len(body["mentions"]) == glossary.look_up("KV cache").mention_sections > 1


def test_unknown_term_suggests(workdir: Path, indexed) -> None:
    result = run("term", "tokn", cwd=workdir)
    assert result.returncode == 1
    assert "No term named 'tokn'" in result.stderr
    assert "Did you mean: token" in result.stderr
    assert result.stdout == ""
    no_traceback(result)


def test_unknown_term_json(workdir: Path, indexed) -> None:
    result = run("term", "tokn", "--json", cwd=workdir)
    assert result.returncode == 1
    body = json.loads(result.stdout)
    assert set(body) == {"error", "suggestions"}
    assert "token" in body["suggestions"]
    no_traceback(result)


def test_a_glossary_stub_is_said_to_have_no_definition_yet(tmp_path: Path,
                                                           tiny_course: Path) -> None:
    """``term`` on a name the glossary writes with an empty ``:`` said "No term named", as for
    a typo; it says the term has no definition yet, and where it is written."""
    shutil.copytree(tiny_course, tmp_path, dirs_exist_ok=True)
    glossary = tmp_path / "glossary" / "glossary.md"
    line = len(glossary.read_text(encoding="utf-8").splitlines()) + 2
    with glossary.open("a", encoding="utf-8") as written:
        written.write("\nbeam search\n:\n")
    assert run("index", cwd=tmp_path).returncode == 0
    said = f"'beam search' is in the glossary but has no definition yet (written at " \
           f"glossary/glossary.md:{line})."
    result = run("term", "beam searches", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"lessonsearch: {said}\n"
    result = run("term", "Beam search", "--json", cwd=tmp_path)
    assert result.returncode == 1
    assert json.loads(result.stdout) == {
        "error": said, "suggestions": [],
        "no_definition_yet": {"term": "beam search", "written_at": f"glossary/glossary.md:{line}"}}


def test_terms(workdir: Path, indexed, searcher) -> None:
    result = run("terms", cwd=workdir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    names = [r.term for r in searcher.glossary.records]
    assert len(lines) == len(names)
    for line, name in zip(lines, names, strict=True):
        assert line.startswith(name)
    assert {"KV cache", "temperature", "token", "vocabulary"} <= set(names)


def test_terms_json(workdir: Path, indexed, searcher) -> None:
    result = run("terms", "--json", cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == responses.terms_body(
        searcher.glossary.records, searcher.term_forms())


@pytest.mark.parametrize("args", [("search", "token"), ("term", "KV cache"), ("terms",),
                                  ("terms", "--json"), ("coverage",)])
def test_output_into_a_closed_pipe_stops_quietly(workdir: Path, indexed,
                                                 args: tuple[str, ...]) -> None:
    """``lessonsearch terms | head -1``: once ``head`` has gone, the next write fails. A pipe
    whose reading end is closed before the command starts makes that certain."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, "-m", "lessonsearch.cli", *args], cwd=workdir,
                                stdout=write_end, stderr=subprocess.PIPE, text=True,
                                timeout=120)
    finally:
        os.close(write_end)
    assert result.stderr == ""
    assert result.returncode == 141  # as a shell reports a tool stopped by the closed pipe


# --- Counts in words ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def counts_of_one(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course where every count the CLI prints can be 1: one result, one mention, one more
    lesson using a term before the lesson that defines it."""
    folder = tmp_path_factory.mktemp("counts")
    lessons = folder / "lessons"
    lessons.mkdir()
    for number, title, text in [
        (1, "Sauces", "Melt butter, then stir in a roux until it smells of biscuits."),
        (2, "Gravy", "Whisk a little roux into the pan juices."),
        (3, "Basics", "Flour cooked in fat is known as a roux."),
    ]:
        (lessons / f"0{number}-{title.lower()}.md").write_text(
            f"---\ntitle: {title}\nposition: {number}\n---\n\n## {title} at work\n\n{text}\n")
    (folder / "glossary").mkdir()
    (folder / "glossary" / "g.md").write_text(
        "roux\n: Flour cooked in fat, used to thicken a sauce.\n\n"
        "pan juices\n: What a roast leaves in its tin.\n")
    assert run("index", cwd=folder).returncode == 0
    return folder


def test_counts_of_one_are_singular(counts_of_one: Path) -> None:
    search = run("search", "biscuits", cwd=counts_of_one).stdout.splitlines()
    assert search[-1] == "1-1 of 1 result for 'biscuits'"
    term = run("term", "pan juices", cwd=counts_of_one).stdout
    assert "  mentioned 1 time in 1 section\n" in term
    terms = run("terms", cwd=counts_of_one).stdout.splitlines()
    assert terms[0] == f"{'pan juices':<36}    1 mention   What a roast leaves in its tin."
    assert terms[1].startswith(f"{'roux':<36}    3 mentions  Flour cooked")  # one column
    coverage = run("coverage", "--lessons", "1", "--fail-on", "used-before-definition",
                   cwd=counts_of_one)
    assert "  roux: used in sauces and 1 more lesson before basics defines it" in coverage.stdout
    assert coverage.stdout.splitlines()[1].startswith(
        "2 terms, 2 in the glossary; 1 used before definition; ")
    assert coverage.stdout.splitlines()[1].endswith(
        "; 0 candidates; 0 broken anchors; 0 terms with no definition; 0 allowed.")
    assert coverage.stderr.startswith("lessonsearch: 1 coverage problem of kinds --fail-on")


def test_one_broken_anchor_is_singular(counts_of_one: Path, tmp_path: Path) -> None:
    folder = shutil.copytree(counts_of_one, tmp_path / "course", symlinks=True)
    lesson = folder / "lessons" / "01-sauces.md"
    lesson.write_text(lesson.read_text().replace("## Sauces at work", "## Sauces in use"))
    assert run("index", cwd=folder).returncode == 0
    summary = run("coverage", cwd=folder).stdout.splitlines()[1]
    assert "; 0 candidates; 1 broken anchor; 0 terms with no definition; 0 allowed." in summary


def on_a_terminal(*args: str, cwd: Path) -> str:
    """What ``lessonsearch`` writes to stderr when it is a terminal, as an operator sees it."""
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    with subprocess.Popen([sys.executable, "-m", "lessonsearch.cli", *args], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=follower) as process:
        os.close(follower)
        written = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the child has closed its end: all is read
                break
            if not chunk:
                break
            written += chunk
        os.close(leader)
        assert process.wait(timeout=120) == 0
    return written.decode("utf-8")


def test_the_progress_bar_cuts_a_long_file_name_at_a_folder(tmp_path: Path) -> None:
    """On a terminal the bar shows the file being read in 40 characters: the last 40 read
    "ons/18-retrieval-augmented-generation.md", the folder's name cut in two."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-short.md").write_text("## Short\n\nA short lesson.\n")
    (lessons / "18-retrieval-augmented-generation.md").write_text(
        "## Open book\n\nAnswers with passages found first.\n")
    (lessons / "19-an-extremely-long-lesson-file-name-that-fills-the-bar.md").write_text(
        "## Long\n\nA lesson with a long file name.\n")
    frames = on_a_terminal("index", cwd=tmp_path).split("\r")
    names = [frame.split("] ", 1)[1].split(" ", 1)[1].rstrip() for frame in frames
             if frame.startswith("[")]
    assert names == ["lessons/01-short.md", "…/18-retrieval-augmented-generation.md",
                     "…-lesson-file-name-that-fills-the-bar.md"]
    assert all(len(name) <= 40 for name in names)


def test_a_one_file_course_reads_one_lesson_file(tmp_path: Path) -> None:
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-only.md").write_text("## Alone\n\nOne lesson, one section.\n")
    result = run("index", cwd=tmp_path)
    assert "read 1/1 lesson file (100%)" in result.stderr
    assert result.stdout.startswith("Indexed 1 lesson, 1 section, 0 terms; 0 warnings, "
                                    "0 skipped files; ")
    assert result.stdout.rstrip().endswith("; 1 of 1 lesson rewritten)")


# --- No index yet ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args", [("search", "token"), ("search", "token", "--json"), ("term", "token"), ("terms",),
             ("term", "token", "--json"), ("terms", "--json"), ("coverage", "--format", "json")]
)
def test_a_missing_index_is_a_clear_message(tmp_path: Path, args: tuple[str, ...]) -> None:
    """On stderr; and where JSON was asked for, as the API's error body on stdout too."""
    result = run(*args, "--index", "nowhere", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("lessonsearch: No index at nowhere.")
    assert "lessonsearch index" in result.stderr
    if "json" in args or "--json" in args:
        assert json.loads(result.stdout) == {"error": result.stderr.removeprefix(
            "lessonsearch: ").rstrip("\n")}
    else:
        assert result.stdout == ""
    no_traceback(result)


def test_a_missing_allow_file_is_named(counts_of_one: Path) -> None:
    result = run("coverage", "--allow", "no-such-allow.txt", cwd=counts_of_one)
    assert result.returncode == 1
    assert result.stderr == "lessonsearch: No allow-list file at no-such-allow.txt\n"
    no_traceback(result)


# --- prune: a replica's old versions --------------------------------------------------------------


def replica(tiny_index: Path, folder: Path, count: int) -> list[str]:
    """An index folder as a replica's rollouts leave it: ``count`` versions copied in under
    names of the shape a build gives (``index_store.new_version_dir``), oldest first,
    ``current`` naming the newest; no build ran there, so none was pruned."""
    folder.mkdir()
    names = [f"v-20261201T0900{n:02d}123456-a{n:05x}" for n in range(count)]
    for name in names:
        shutil.copytree(current_version(tiny_index), folder / name)
    (folder / "current").symlink_to(names[-1])
    return names


def kept(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("v-*"))


def test_prune_keeps_the_three_newest_versions_as_a_build_does(tmp_path: Path,
                                                                tiny_index: Path) -> None:
    """A replica has no build to prune it: each rollout's version piled up beside the others.
    A copy being made (a ``.tmp`` folder) and a rollout's new link are left alone."""
    out = tmp_path / "index"
    names = replica(tiny_index, out, 5)
    (out / "v-20261201T090009123456-b00000.tmp").mkdir()
    (out / ".current.new").symlink_to(names[0])
    result = run("prune", "--index", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    checked, removed = result.stdout.splitlines()
    assert checked.startswith("Checked ") and checked.endswith(
        f" files of version {names[-1]}: every one is as its build wrote it.")
    assert removed == (f"Removed 2 versions: {names[0]}, {names[1]}; kept 3: {names[2]}, "
                       f"{names[3]}, {names[4]} (current).")
    assert kept(out) == [*names[2:], "v-20261201T090009123456-b00000.tmp"]
    assert os.readlink(out / ".current.new") == names[0]
    assert os.readlink(out / "current") == names[-1]
    again = run("prune", "--index", str(out), "--keep", "2", cwd=tmp_path)
    assert again.stdout.splitlines()[1] == (
        f"Removed 1 version: {names[2]}; kept 2: {names[3]}, {names[4]} (current).")
    assert run("search", "token", "--index", str(out), cwd=tmp_path).returncode == 0


def test_prune_keeps_the_live_version_and_the_one_before_it_whatever_their_age(
        tmp_path: Path, tiny_index: Path) -> None:
    """``current`` swapped back to an older version (a rollback): it, and the version before
    it, which a server still reads while it checks the live one, are kept with the newest."""
    out = tmp_path / "index"
    names = replica(tiny_index, out, 5)
    (out / "current").unlink()
    (out / "current").symlink_to(names[1])
    result = run("prune", "--index", str(out), "--keep", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert kept(out) == [names[0], names[1], names[3], names[4]]
    assert f"{names[1]} (current)" in result.stdout


def test_prune_removes_nothing_while_the_live_version_is_damaged(tmp_path: Path,
                                                                 tiny_index: Path) -> None:
    """A server then serves the newest older version that opens, whichever it is."""
    out = tmp_path / "index"
    names = replica(tiny_index, out, 5)
    os.truncate(out / names[-1] / "glossary.sqlite", 5000)
    result = run("prune", "--index", str(out), cwd=tmp_path)
    assert result.returncode == 1
    no_traceback(result)
    assert result.stderr.startswith(f"lessonsearch: The index at {out} cannot be read: ")
    assert result.stderr.endswith("copy the version again under a new name and swap current. "
                                  "Nothing was removed: while the live version is damaged a "
                                  "server serves an older one.\n")
    assert kept(out) == names


def test_prune_keeps_at_least_two_and_makes_no_folder(tmp_path: Path, tiny_index: Path) -> None:
    result = run("prune", "--index", "nowhere", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("lessonsearch: No index at nowhere.")
    assert not (tmp_path / "nowhere").exists()
    out = tmp_path / "index"
    names = replica(tiny_index, out, 3)
    result = run("prune", "--index", str(out), "--keep", "1", cwd=tmp_path)
    assert result.returncode == 2
    assert "--keep: at least 2, not '1'" in result.stderr
    assert kept(out) == names


@pytest.mark.parametrize("question", ["what is a kv cache", "What is the KV cache?"])
def test_a_question_naming_a_term_keeps_its_query_in_the_json(
        indexed: subprocess.CompletedProcess[str], workdir: Path, question: str) -> None:
    """A question whose subject is a glossary term gave that term's record as ``query``,
    which ``--json`` could not write (a traceback): the query is the question as typed."""
    result = run("search", "--json", question, cwd=workdir)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["query"] == question and found["terms"][0]["term"] == "KV cache"
