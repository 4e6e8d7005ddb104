"""Accepting a move of lessons' links: ``moved-links: OLD`` in the allow-list.

A move is carried from version to version until the lessons' links are the old ones again,
so a one-off preview build into the production index, or a move the site already redirects,
would be listed on every report for good. The course here is written for these tests: two
lessons whose course file publishes them at a preview address, built again at the site's
``/lessons/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from web_fixtures import serving

from lessonsearch.cli import main

PREVIEW = "https://preview.example.test/stats/"
ALLOW = f"moved-links: {PREVIEW}"
PASTE = f"accept the move with the allow line '{ALLOW}'"

COURSE_FILE = f"""\
[course]
slug = "stats-primer"
title = "Statistics Primer"
base_url = "{PREVIEW}"
lessons = ["01-averages.md", "02-spread.md"]
"""

AVERAGES = """\
---
title: Averages
slug: averages
---

## The mean

Add the values and divide by how many there are. The **median** is the middle value once
the values are sorted, which one huge outlier cannot drag along.

## When to use which

Incomes are skewed, so reports give their median rather than their mean.
"""

SPREAD = """\
---
title: Spread
slug: spread
---

## Range

The range is the largest value minus the smallest. The median says nothing of it.

## Variance

The **variance** is the mean squared distance of the values from their mean.
"""

GLOSSARY = """\
median
: The middle value of sorted data.

variance
: The mean squared distance of values from their mean.
"""


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding the course, where the CLI runs (it reads ./coverage-allow.txt)."""
    lessons = tmp_path / "course" / "lessons"
    lessons.mkdir(parents=True)
    (lessons / "lessonsearch.toml").write_text(COURSE_FILE, encoding="utf-8")
    (lessons / "01-averages.md").write_text(AVERAGES, encoding="utf-8")
    (lessons / "02-spread.md").write_text(SPREAD, encoding="utf-8")
    glossary = tmp_path / "course" / "glossary"
    glossary.mkdir()
    (glossary / "glossary.md").write_text(GLOSSARY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def build(capsys: pytest.CaptureFixture, *args: str) -> str:
    code = main(["index", "--lessons", "course/lessons", "--glossary", "course/glossary",
                 "--out", "index", *args])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    return out


def coverage(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(["coverage", "--index", "index", *args])
    out, err = capsys.readouterr()
    return code, out, err


def report(capsys: pytest.CaptureFixture, *args: str) -> tuple[dict, str]:
    """The JSON body, and what the CLI wrote on stderr (the allow-list's warnings)."""
    import json

    code, out, err = coverage(capsys, "--format", "json", *args)
    assert code == 0, err
    return json.loads(out), err


def preview_then_production(capsys: pytest.CaptureFixture) -> None:
    """The one-off preview build, then the production one at /lessons/."""
    build(capsys)
    assert "2 lesson links changed" in build(capsys, "--base-url", "/lessons/")


def test_the_report_shows_the_line_that_accepts_a_move_and_the_line_accepts_it(here, capsys):
    preview_then_production(capsys)
    code, table, _ = coverage(capsys)
    assert code == 0
    assert "Lesson links moved (1)" in table
    assert f"2 lesson links moved from {PREVIEW} to /lessons/" in table
    assert PASTE in table
    _, markdown, _ = coverage(capsys, "--format", "markdown")
    assert PASTE in markdown
    body, _ = report(capsys)
    assert [m["old_url"] for m in body["moved_links"]] == [PREVIEW]
    assert body["summary"]["allowed"] == 0

    (here / "coverage-allow.txt").write_text(f"{ALLOW}  # the preview was never public\n",
                                             encoding="utf-8")
    body, err = report(capsys)
    assert err == ""
    assert body["moved_links"] == [] and body["allow_warnings"] == []
    assert body["summary"]["allowed"] == 1
    code, table, err = coverage(capsys)
    assert (code, err) == (0, "")
    assert "Lesson links moved" not in table and PREVIEW not in table
    assert table.splitlines()[1].endswith("; 1 allowed.")
    with serving(here / "index") as client:
        api = client.get("/api/coverage").get_json()
        page = client.get("/coverage").get_data(as_text=True)
    assert api == body
    assert "Lesson links moved" not in page

    # Still accepted in the versions after, which carry the move over.
    (here / "course" / "lessons" / "02-spread.md").write_text(
        SPREAD + "\nA small variance means the values sit close together.\n",
        encoding="utf-8")
    build(capsys, "--base-url", "/lessons/")
    body, err = report(capsys)
    assert (body["moved_links"], body["summary"]["allowed"], err) == ([], 1, "")


def test_the_course_files_coverage_table_accepts_a_move(here, capsys):
    preview_then_production(capsys)
    course_file = here / "course" / "lessons" / "lessonsearch.toml"
    course_file.write_text(COURSE_FILE + f'\n[coverage]\nmoved-links = ["{PREVIEW}"]\n',
                           encoding="utf-8")
    out = build(capsys, "--base-url", "/lessons/", "--strict")
    assert "0 warnings" in out
    body, err = report(capsys)
    assert (body["moved_links"], body["summary"]["allowed"], err) == ([], 1, "")


def test_a_line_naming_no_move_is_a_warning_with_the_move_it_may_have_meant(here, capsys):
    preview_then_production(capsys)
    allow = here / "coverage-allow.txt"
    allow.write_text("moved-links: https://preveiw.example.test/stats/\n"
                     f"moved-links: {PREVIEW}averages\n"
                     "moved-links: https://elsewhere.example.test/\n", encoding="utf-8")
    body, err = report(capsys)
    assert [m["old_url"] for m in body["moved_links"]] == [PREVIEW]  # nothing silenced it
    assert body["summary"]["allowed"] == 0
    typo, lesson, unknown = body["allow_warnings"]
    assert typo["line"] == 1 and typo["suggestion"] == PREVIEW
    assert ("'moved-links: https://preveiw.example.test/stats/' silences nothing: the report "
            "lists no move of lessons' links from there" in typo["message"])
    assert typo["message"].endswith(f"(did you mean '{PREVIEW}'?)")
    assert lesson["suggestion"] == PREVIEW  # one lesson's old link: the move is the base's
    assert "an allow line names the move as the report prints it" in lesson["reason"]
    assert unknown["suggestion"] is None
    assert "stale if the move was never in this index, else a typo" in unknown["reason"]
    assert err.splitlines() == [f"warning: {w['message']}" for w in body["allow_warnings"]]


def test_a_line_for_a_move_that_is_over_is_stale(here, capsys):
    """Back at the preview address: the move from it is over (and one from /lessons/ is
    listed in its place)."""
    preview_then_production(capsys)
    (here / "coverage-allow.txt").write_text(ALLOW + "\n", encoding="utf-8")
    build(capsys)
    body, err = report(capsys)
    assert [(m["old_url"], m["url"]) for m in body["moved_links"]] == [("/lessons/", PREVIEW)]
    (warning,) = body["allow_warnings"]
    assert warning["reason"] == ("the lessons' links start with it now, so no move from it is "
                                 "listed: the line is stale and can go")
    assert f"warning: coverage-allow.txt:1: '{ALLOW}' silences nothing" in err


def test_a_move_line_is_not_judged_without_an_earlier_version(here, capsys):
    """A CI job that builds afresh finds no moves: its allow-list's move lines are kept."""
    build(capsys, "--base-url", "/lessons/")
    (here / "coverage-allow.txt").write_text(ALLOW + "\n", encoding="utf-8")
    body, err = report(capsys)
    assert (body["allow_warnings"], err) == ([], "")


def test_a_misspelt_kind_suggests_moved_links(here, capsys):
    build(capsys)
    (here / "coverage-allow.txt").write_text(f"moved-link: {PREVIEW}\n", encoding="utf-8")
    code, out, err = coverage(capsys)
    assert (code, out) == (1, "")
    assert err.endswith(f"(did you mean '{ALLOW}'?)\n")
    assert "the kinds are used-before-definition," in err and "moved-links" in err


def test_moves_never_fail_and_fail_on_says_so(here, capsys):
    preview_then_production(capsys)
    code, _, _ = coverage(capsys, "--fail-on", ",".join(
        ["used-before-definition", "missing-from-glossary", "unused", "conflicting",
         "broken-anchors", "needs-definition"]))
    assert code == 0
    with pytest.raises(SystemExit) as raised:
        main(["coverage", "--index", "index", "--fail-on", "unused,moved-links"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert "moved-links never fails: a move of lessons' links is informational" in err
    assert "choose from used-before-definition" in err
