"""A glossary alias that writes an all-capital term in lower case ("RPM", "Also: rpm") is the
term's name too: the capitals rule (an abbreviation matches only in capitals, so "rag" is no
RAG) would otherwise make the lower-case word no mention, though the glossary says it is."""

from __future__ import annotations

from course_fixtures import built_course, cli_mentions

LESSONS = {
    "01-engine.md": "# The engine\n\n## Starting\n\nThe RPM gauge sits by the wheel.\n",
    "02-motoring.md": "# Motoring\n\n## Cruising\n\nRun the engine at 2000 rpm to save fuel.\n",
}


def test_a_lower_case_alias_of_an_abbreviation_counts_its_uses(tmp_path, capsys):
    index = built_course(tmp_path, LESSONS, "RPM\n: Revolutions per minute, how fast the "
                         "engine turns.\n  Also: rpm, revolutions per minute\n")
    assert cli_mentions(index, "RPM", capsys) == (2, ["engine", "motoring"])
    capsys.readouterr()
    assert cli_mentions(index, "rpm", capsys) == (2, ["engine", "motoring"])


def test_without_the_alias_the_lower_case_word_is_no_use(tmp_path, capsys):
    index = built_course(tmp_path, LESSONS, "RPM\n: Revolutions per minute, how fast the "
                         "engine turns.\n")
    assert cli_mentions(index, "RPM", capsys) == (1, ["engine"])
