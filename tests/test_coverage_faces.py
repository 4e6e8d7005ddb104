"""One report, three faces: ``lessonsearch coverage``, ``GET /api/coverage`` and ``/coverage``
agree, and ``--fail-on`` turns named problem lists into an exit code a CI job can use."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from test_coverage import COURSE, build_coverage_index
from web_fixtures import serving

from lessonsearch.build import build_index
from lessonsearch.cli import main
from lessonsearch.coverage import coverage_report
from lessonsearch.coverage_allow import KINDS
from lessonsearch.coverage_render import page_context
from lessonsearch.index_store import current_version
from lessonsearch.search_log import record_zero_result

COUNT = re.compile(r'data-count="([\w-]+)">(\d+)<')


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index_dir = build_coverage_index(tmp_path_factory.mktemp("faces"))
    record_zero_result(index_dir, "proofing basket")
    record_zero_result(index_dir, "Proofing  basket")
    return index_dir


@pytest.fixture(autouse=True)
def no_allow_file_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI and the app read ./coverage-allow.txt; run where there is none."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def client(index_dir: Path):
    with serving(index_dir) as client:
        yield client


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(["coverage", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("asked", [("--format", "json"), ("--json",)])
def test_cli_json_is_the_api_body(index_dir, client, capsys, asked):
    """``--json`` as search, term and terms take it, or ``--format json``."""
    code, out, _ = run(capsys, "--index", str(index_dir), *asked)
    assert code == 0
    api = client.get("/api/coverage")
    assert api.status_code == 200
    assert json.loads(out) == api.get_json()


def test_the_page_shows_the_same_counts(index_dir, client, capsys):
    body = client.get("/api/coverage").get_json()
    page = client.get("/coverage")
    assert page.status_code == 200
    shown = dict(COUNT.findall(page.get_data(as_text=True)))
    expected = {kind: str(body["summary"][kind.replace("-", "_")]) for kind in KINDS}
    assert {kind: shown[kind] for kind in KINDS} == expected
    assert shown["terms"] == str(len(body["terms"]))
    assert shown["zero-result-searches"] == "1"
    _, html, _ = run(capsys, "--index", str(index_dir), "--format", "html")
    assert dict(COUNT.findall(html)) == shown


def test_the_json_body_has_the_documented_shape(index_dir, client):
    body = client.get("/api/coverage").get_json()
    assert list(body)[:2] == ["summary", "terms"]
    for kind in KINDS:
        assert len(body[kind.replace("-", "_")]) == 1, kind
    term = next(t for t in body["terms"] if t["term"] == "levain")
    assert set(term) >= {"term", "in_glossary", "defined_at", "mentions", "lessons",
                         "first_mention"}
    assert body["candidates"][0]["phrase"] == "bulk fermentation"
    assert set(body["candidates"][0]) >= {"phrase", "count", "lessons"}
    assert body["broken_anchors"][0]["old_url"].endswith("#cooling-down")
    assert body["needs_definition"] == [
        {"term": "poolish", "glossary_entry": "glossary/more-terms.md:4"}]
    assert body["zero_result_searches"] == [
        {"query": "proofing basket", "count": 2, "last": body["zero_result_searches"][0]["last"]}
    ]


def test_fail_on_exits_1_and_prints_the_named_lists_as_allow_lines(index_dir, capsys):
    code, out, err = run(capsys, "--index", str(index_dir),
                         "--fail-on", "unused,used-before-definition")
    assert code == 1
    assert "Term coverage: Bread Basics" in out
    failing = [line for line in err.splitlines() if not line.startswith("lessonsearch:")]
    assert [line.split("  #")[0] for line in failing] == [
        "unused: banneton", "used-before-definition: levain"]


def test_fail_on_passes_once_the_entries_are_allowed(index_dir, tmp_path, capsys):
    (tmp_path / "coverage-allow.txt").write_text(
        "unused: banneton\nused-before-definition: levain\n", encoding="utf-8")
    code, _, err = run(capsys, "--index", str(index_dir),
                       "--fail-on", "unused,used-before-definition")
    assert (code, err) == (0, "")


def test_an_allow_line_that_silences_nothing_is_shown_by_every_face(index_dir, tmp_path,
                                                                    capsys, client):
    (tmp_path / "coverage-allow.txt").write_text(
        "unused: banneton\nunused: banetton\n", encoding="utf-8")
    code, _, err = run(capsys, "--index", str(index_dir), "--fail-on", "unused")
    assert code == 0
    assert err == ("warning: coverage-allow.txt:2: 'unused: banetton' silences nothing: no term "
                   "of the glossary or the lessons is called that: a typo, or a term since "
                   "removed (did you mean 'banneton'?)\n")
    _, out, _ = run(capsys, "--index", str(index_dir), "--format", "json")
    (warning,) = json.loads(out)["allow_warnings"]
    assert warning == {"source": "coverage-allow.txt", "line": 2, "kind": "unused",
                       "name": "banetton", "reason": warning["reason"],
                       "suggestion": "banneton", "message": err.removeprefix("warning: ")[:-1]}
    assert client.get("/api/coverage").get_json()["allow_warnings"] == [warning]
    page = " ".join(client.get("/coverage").get_data(as_text=True).split())
    assert 'data-count="allow-warnings">1<' in page
    assert ("<strong>unused: banetton</strong> (coverage-allow.txt, line 2): no term of the "
            "glossary") in page
    _, markdown, _ = run(capsys, "--index", str(index_dir), "--format", "markdown")
    assert "## Allow-list lines that silence nothing (1)" in markdown


def test_fail_on_an_empty_list_exits_0(index_dir, tmp_path, capsys):
    allow = tmp_path / "elsewhere.txt"
    allow.write_text("conflicting: crumb\n", encoding="utf-8")
    code, _, _ = run(capsys, "--index", str(index_dir), "--fail-on", "conflicting",
                     "--allow", str(allow))
    assert code == 0


def test_an_unknown_kind_is_a_usage_error(index_dir, capsys):
    with pytest.raises(SystemExit) as raised:
        main(["coverage", "--index", str(index_dir), "--fail-on", "unusd"])
    assert raised.value.code == 2
    assert "choose from used-before-definition" in capsys.readouterr().err


def test_markdown_and_table_list_every_kind(index_dir, capsys):
    _, table, _ = run(capsys, "--index", str(index_dir))
    _, markdown, _ = run(capsys, "--index", str(index_dir), "--format", "markdown")
    for text in (table, markdown):
        assert "levain" in text and "bulk fermentation" in text and "cooling-down" in text
    assert "## Used before definition (1)" in markdown


def test_every_face_gives_each_terms_first_mention(index_dir, capsys):
    _, body, _ = run(capsys, "--index", str(index_dir), "--format", "json")
    _, table, _ = run(capsys, "--index", str(index_dir))
    _, markdown, _ = run(capsys, "--index", str(index_dir), "--format", "markdown")
    terms = json.loads(body)["terms"]
    assert any(t["first_mention"] for t in terms) and any(not t["first_mention"] for t in terms)
    rows = {line.split(" | ")[0].removeprefix("| "): line.rstrip(" |").rsplit(" | ", 1)[1]
            for line in markdown.splitlines()[markdown.splitlines().index("## Terms") + 4:]
            if line.startswith("| ")}
    for t in terms:
        first = t["first_mention"]
        assert rows[t["term"]] == (f"[{first['lesson']}]({first['url']})" if first else "–")
        row = next(line for line in table.splitlines() if line.startswith(t["term"] + "  "))
        assert row.endswith("  " + (first["lesson"] if first else "-"))


def test_the_page_filters_and_sorts_without_javascript(client):
    unused = client.get("/coverage?kind=unused").get_data(as_text=True)
    assert unused.count("<tr data-kinds") == 1 and 'data-term="banneton"' in unused
    by_mentions = client.get("/coverage?sort=mentions").get_data(as_text=True)
    order = re.findall(r'data-term="([^"]+)"', by_mentions)
    assert order[0] == "hydration"
    assert "<script>" not in by_mentions and " style=" not in by_mentions  # the CSP forbids both


BY_FEWEST_MENTIONS = ["banneton", "couche", "autolyse", "crumb", "oven spring", "levain",
                      "hydration"]
"""Mentions ascending: 0, 0, 1, 1, 1, 2, 3, tied terms A–Z."""


def test_the_page_sorts_a_column_the_other_way_without_javascript(client):
    """``?order=`` reverses the sorted column (the page had no way to say it, so a reversed
    sort could not be kept in a URL); tied terms still read A–Z, and the column's link turns
    it back."""
    html = client.get("/coverage?sort=mentions&order=ascending").get_data(as_text=True)
    assert re.findall(r'data-term="([^"]+)"', html) == BY_FEWEST_MENTIONS
    (header,) = re.findall(r'<th scope="col"[^>]*aria-sort="(\w+)">\s*<a href="([^"]*)"', html)
    assert header == ("ascending", "?sort=mentions#terms")
    by_mentions = " ".join(client.get("/coverage?sort=mentions").get_data(as_text=True).split())
    assert 'href="?sort=mentions&amp;order=ascending#terms" data-sort="mentions"' in by_mentions
    assert re.findall(r'data-term="([^"]+)"', by_mentions) == [
        "hydration", "levain", "autolyse", "crumb", "oven spring", "banneton", "couche"]
    reversed_terms = client.get("/coverage?order=descending").get_data(as_text=True)
    assert re.findall(r'data-term="([^"]+)"', reversed_terms)[0] == "oven spring"


def test_a_filtered_page_hides_the_other_rows_and_its_links_keep_the_sort(client):
    """The rows a filter hides are in the page, hidden, so the page's script can show them
    again; the filter and sort links carry each other's choice."""
    html = " ".join(client.get("/coverage?kind=unused&sort=mentions&order=ascending")
                    .get_data(as_text=True).split())
    rows = re.findall(r'<tr( hidden)? data-kinds="[^"]*"[^>]*data-term="([^"]+)"', html)
    assert [term for hidden, term in rows if not hidden] == ["banneton"]
    assert [term for _, term in rows] == BY_FEWEST_MENTIONS
    assert 'href="?sort=mentions&amp;order=ascending#terms" data-filter=""' in html
    assert 'href="?kind=unused&amp;sort=term#terms" data-sort="term"' in html
    assert '<tr class="no-rows" hidden>' in html  # "No term has this problem."



def test_the_page_links_keep_the_lessons_asked_for_without_javascript(client):
    """``?lessons=5`` was dropped by the filter and sort links the server draws (only the
    page's script kept it): a reader without JavaScript lost it at the first click."""
    html = " ".join(client.get("/coverage?lessons=5&kind=unused").get_data(as_text=True)
                    .split())
    assert 'href="?lessons=5&amp;sort=term#terms" data-filter=""' in html
    assert 'href="?lessons=5&amp;kind=unused&amp;sort=mentions#terms" data-sort="mentions"' in html
    plain = " ".join(client.get("/coverage").get_data(as_text=True).split())
    assert 'href="?sort=term#terms" data-filter=""' in plain

GLOSSARY_ORDER = ["banneton", "couche", "crumb", "hydration", "levain", "oven spring", "autolyse"]
"""The terms by glossary entry: glossary.md lines 5, 8, 11, 14, 17, 20, then no entry."""


def test_sorting_by_glossary_entry_follows_file_then_line_number(client):
    html = client.get("/coverage?sort=glossary").get_data(as_text=True)
    assert re.findall(r'data-term="([^"]+)"', html) == GLOSSARY_ORDER


@pytest.mark.parametrize("sort, reads", [("term", "ascending"), ("glossary", "ascending"),
                                         ("mentions", "descending"), ("lessons", "descending")])
def test_the_sorted_column_says_which_way_it_reads(client, sort, reads):
    html = client.get(f"/coverage?sort={sort}").get_data(as_text=True)
    assert re.findall(r'aria-sort="(\w+)">\s*<a href="[^"]*sort=(\w+)', html) == [(reads, sort)]


def test_the_page_words_a_count_of_one_in_the_singular(client):
    text = " ".join(client.get("/coverage").get_data(as_text=True).split())
    assert "1</span> accepted entry hidden by the allow-list" in text
    assert "7</span> terms," in text


def test_the_pages_problem_lines_word_one_lesson_in_the_singular(index_dir):
    report = coverage_report(current_version(index_dir), index_dir)
    say = page_context(report)["describe"]
    (candidate,) = report.problems("candidates")
    assert say("candidates", replace(candidate, lessons=candidate.lessons[:1])).endswith(
        f"{candidate.count}× in 1 lesson")
    assert say("candidates", replace(candidate, lessons=candidate.lessons * 2)).endswith(
        f"in {2 * len(candidate.lessons)} lessons")
    (early,) = report.problems("used-before-definition")
    assert "and 1 more lesson before" in say(
        "used-before-definition", replace(early, used_count=len(early.used_at) + 1))


def test_a_missing_index_is_a_503_in_the_api_shape(tmp_path: Path):
    with serving(tmp_path / "nothing") as client:
        got = client.get("/api/coverage")
    assert got.status_code == 503
    assert "error" in got.get_json()


# --- Allow-list lines that are none ---------------------------------------------------------

BAD_TABLE = ('allow = ["unused banneton",\n'
             '         "candidates: bulk fermentation"]\n'
             'unusd = ["levain"]\n')
"""Appended to the coverage course's ``[coverage]`` table (its last): lines 14 to 16."""


def test_a_bad_line_of_the_course_files_coverage_table_is_a_build_warning(tmp_path, capsys):
    """A typo in the course file fails ``--strict`` at its line, and the report, built
    without ``--strict``, keeps the table's good lines and never meets the bad ones."""
    course = Path(shutil.copytree(COURSE, tmp_path / "course"))
    (course / "glossary" / "more-terms.md").unlink()  # its duplicate entry is a warning too
    toml = course / "lessons" / "lessonsearch.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + BAD_TABLE, encoding="utf-8")
    build = ["index", "--lessons", str(course / "lessons"), "--glossary",
             str(course / "glossary"), "--out", str(tmp_path / "index")]
    assert main([*build, "--strict"]) == 1
    out, err = capsys.readouterr()
    assert "2 warnings" in out and "not published under --strict" in out
    assert not (tmp_path / "index" / "current").exists()
    where = "lessons/lessonsearch.toml"  # as the lessons are named, not absolute
    assert [line.split(": [coverage] ")[0] for line in err.splitlines()
            if line.startswith("warning:")] == [f"warning: {where}:14", f"warning: {where}:16"]
    assert ("[coverage] allow: 'unused banneton': expected 'kind: name'" in err
            and "(did you mean 'unused: banneton'?); the coverage report ignores it" in err)
    assert ("[coverage] 'unusd' is no kind of problem; the keys are allow and the kinds, "
            "used-before-definition, " in err and "(did you mean 'unused'?)" in err)

    assert main(build) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "--index", str(tmp_path / "index"), "--format", "json")
    assert (code, err) == (0, "")
    body = json.loads(out)
    assert body["allow_warnings"] == [] and body["candidates"] == []
    assert body["summary"]["allowed"] == 2  # couche, and bulk fermentation
    with serving(tmp_path / "index") as client:
        assert client.get("/api/coverage").get_json() == body


def test_a_bad_line_an_index_already_holds_is_a_warning_not_a_failure(tmp_path, capsys):
    """An index built before the build checked the table may hold a bad line: the report
    shows it among the lines that silence nothing instead of failing."""
    course = Path(shutil.copytree(COURSE, tmp_path / "course"))
    build_index(course / "lessons", course / "glossary", tmp_path / "index")
    manifest = current_version(tmp_path / "index") / "manifest.json"
    stored = json.loads(manifest.read_text(encoding="utf-8"))
    stored["coverage_allow"] += ["unusd: levain"]
    manifest.write_text(json.dumps(stored), encoding="utf-8")
    code, _, err = run(capsys, "--index", str(tmp_path / "index"))
    assert code == 0
    assert err.startswith("warning: the course file's [coverage] table: 'unusd: levain' "
                          "silences nothing: 'unusd' is no kind of problem")
    with serving(tmp_path / "index") as client:
        assert client.get("/coverage").status_code == 200
        (warning,) = client.get("/api/coverage").get_json()["allow_warnings"]
    assert (warning["kind"], warning["name"], warning["suggestion"]) == (
        "unusd", "levain", "unused: levain")


MALFORMED = b"unused: banneton\nunsued: levain\nused-before-definition levain\n\xffunused: x\n"


def test_a_malformed_allow_file_is_refused_by_the_cli_at_its_line(index_dir, tmp_path, capsys):
    (tmp_path / "coverage-allow.txt").write_bytes(MALFORMED)
    code, out, err = run(capsys, "--index", str(index_dir))
    assert (code, out) == (1, "")
    assert err == ("lessonsearch: coverage-allow.txt:2: 'unsued: levain' is no allow-list line: "
                   "'unsued' is no kind of problem; the kinds are used-before-definition, "
                   "missing-from-glossary, unused, undefined, conflicting, candidates, "
                   "broken-anchors, needs-definition, moved-links "
                   "(did you mean 'unused: levain'?)\n")


def test_a_malformed_allow_file_is_shown_by_the_server_and_its_bad_lines_ignored(
        index_dir, tmp_path, client):
    """An editor still gets the report: each bad line is among the lines that silence
    nothing, and the good ones silence their entries."""
    (tmp_path / "coverage-allow.txt").write_bytes(MALFORMED)
    api = client.get("/api/coverage")
    assert api.status_code == 200
    body = api.get_json()
    assert body["summary"]["unused"] == 0  # banneton: line 1 still counts
    assert [(w["line"], w["kind"], w["name"], w["suggestion"]) for w in body["allow_warnings"]
            ] == [(2, "unsued", "levain", "unused: levain"),
                  (3, "", "used-before-definition levain", "used-before-definition: levain"),
                  (4, "", "\ufffdunused: x", None)]
    assert body["allow_warnings"][2]["message"] == (
        "coverage-allow.txt:4: '\ufffdunused: x' silences nothing: not UTF-8 text (byte 0xff)")
    page = client.get("/coverage")
    assert page.status_code == 200
    text = " ".join(page.get_data(as_text=True).split())
    assert 'data-count="allow-warnings">3<' in text
    assert ("<strong>used-before-definition levain</strong> (coverage-allow.txt, line 3): "
            "expected &#39;kind: name&#39;") in text


def test_an_allow_file_that_is_not_utf8_is_named_with_its_line(index_dir, tmp_path, capsys):
    allow = tmp_path / "elsewhere.txt"
    allow.write_bytes(b"unused: banneton\n\xffunused: x\n")
    code, _, err = run(capsys, "--index", str(index_dir), "--allow", str(allow))
    assert code == 1
    assert err == (f"lessonsearch: {allow}:2: '\ufffdunused: x' is no allow-list line: "
                   "not UTF-8 text (byte 0xff)\n")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_an_allow_file_saved_as_utf16_is_refused_as_such(index_dir, tmp_path, capsys,
                                                           encoding):
    """Windows Notepad's "Unicode": each line read as UTF-8 would be its letters with NUL
    bytes between them, or mojibake of its byte order mark, in the message."""
    allow = tmp_path / "coverage-allow.txt"
    allow.write_text("unused: banneton\nunsued: levain\n", encoding=encoding)
    code, _, err = run(capsys, "--index", str(index_dir), "--allow", str(allow))
    assert (code, err) == (1, f"lessonsearch: {allow}: the file is saved as UTF-16, not "
                              "UTF-8, so none of its lines silences anything; save it as "
                              "UTF-8\n")


def test_the_server_names_an_allow_file_saved_as_utf16(index_dir, tmp_path, client):
    (tmp_path / "coverage-allow.txt").write_text("unused: banneton\n", encoding="utf-16")
    body = client.get("/api/coverage").get_json()
    assert body["summary"]["unused"] == 1  # the line silences nothing
    assert [w["message"] for w in body["allow_warnings"]] == [
        "coverage-allow.txt: the file is saved as UTF-16, not UTF-8, so none of its lines "
        "silences anything; save it as UTF-8"]
    page = client.get("/coverage").get_data(as_text=True)
    assert "saved as UTF-16" in page and "\x00" not in page and "\ufffd" not in page


def test_an_allow_file_holding_a_nul_byte_is_no_text(index_dir, tmp_path, capsys):
    allow = tmp_path / "elsewhere.txt"
    allow.write_bytes(b"unused: banneton\nunused: le\x00vain\n")
    code, _, err = run(capsys, "--index", str(index_dir), "--allow", str(allow))
    assert (code, err) == (1, f"lessonsearch: {allow}: the file is no UTF-8 text (it holds NUL "
                              "bytes), so none of its lines silences anything; save it as "
                              "UTF-8\n")


def test_an_allow_file_written_with_a_bom_is_read(index_dir, tmp_path, capsys):
    """Windows editors start a UTF-8 file with a byte order mark."""
    allow = tmp_path / "elsewhere.txt"
    allow.write_text("\ufeffunused: banneton\r\n", encoding="utf-8")
    code, _, err = run(capsys, "--index", str(index_dir), "--allow", str(allow),
                       "--fail-on", "unused")
    assert (code, err) == (0, "")


SEEDLINGS = {
    "lessonsearch.toml": '[course]\ntitle = "Seedlings"\n\n[[module]]\nindex = 1\n'
                         'slug = "spring"\ntitle = "Spring"\nlessons = ["01-sow.md", '
                         '"02-prick-out.md", "03-harden-off.md", "04-plant-out.md"]\n',
    "01-sow.md": "---\ntitle: Sowing\n---\n\n## Trays\n\nSow thinly and keep the tray in a "
                 "cold frame until the first leaves open.\n",
    "02-prick-out.md": "---\ntitle: Pricking out\n---\n\n## Pots\n\nMove each seedling to "
                       "its own pot and back into the cold frame.\n",
    "03-harden-off.md": "---\ntitle: [Hardening off\n---\n\n## Days\n\nOpen the lid a little "
                        "more each day.\n",
    "04-plant-out.md": "---\ntitle: Planting out\n---\n\n## Beds\n\nEmpty the cold frame "
                       "once the frosts are over.\n",
}


def test_coverage_numbers_lessons_as_the_course_does(tmp_path, capsys):
    """Lesson 3 is broken and skipped: Planting out is still lesson 4, as /api/lessons and
    the course file say, in the JSON's lessons and in the page's strips (it was 3)."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for name, text in SEEDLINGS.items():
        (lessons / name).write_text(text, encoding="utf-8")
    glossary = tmp_path / "glossary"
    glossary.mkdir()
    (glossary / "glossary.md").write_text("cold frame\n: A glass box that keeps the frost "
                                          "off young plants.\n", encoding="utf-8")
    build_index(lessons, glossary, tmp_path / "index")
    code, out, _ = run(capsys, "--index", str(tmp_path / "index"), "--format", "json")
    assert code == 0
    body = json.loads(out)
    assert [(x["slug"], x["position"]) for x in body["lessons"]] == [
        ("sow", 1), ("prick-out", 2), ("plant-out", 4)]
    _, html, _ = run(capsys, "--index", str(tmp_path / "index"), "--format", "html")
    with serving(tmp_path / "index") as client:
        assert [x["position"] for x in client.get("/api/lessons").get_json()["lessons"]] == [
            1, 2, 4]
        assert client.get("/api/coverage").get_json()["lessons"] == body["lessons"]
        page = client.get("/coverage").get_data(as_text=True)
    for shown in (page, html):
        titles = re.findall(r"<title>(\d+\. [^<]*)</title>", shown)
        assert titles == ["1. Sowing: 1 mention", "2. Pricking out: 1 mention",
                          "4. Planting out: 1 mention"]
        assert ">4. Planting out: 1 mention</a>" in shown  # the Lessons list under the strip
