"""A term a lesson defines in the classic shape, "X is a <kind> that <does …>", opening its
section, is a term of the lesson's own when the glossary lacks it: the coverage report lists
it as missing from the glossary. The plain form otherwise names a glossary term only."""

from __future__ import annotations

from pathlib import Path

import pytest
from course_fixtures import built_course

from lessonsearch.coverage import coverage_report
from lessonsearch.index_store import current_version

GLOSSARY = "halyard\n: The rope that hoists a sail up the mast.\n"


def missing(tmp_path: Path, section: str) -> list[str]:
    """The terms the coverage report lists as missing from the glossary, for a course of one
    lesson holding ``section``."""
    index = built_course(tmp_path, {"01-rigging.md": (
        f"# Rigging\n\n## Ropes\n\nPull the halyard to raise the sail.\n\n{section}\n")},
        GLOSSARY)
    report = coverage_report(current_version(index), index)
    return [entry.term for entry in report.missing_from_glossary]


def test_a_kind_and_what_it_does_defines_a_term_the_glossary_lacks(tmp_path):
    assert missing(tmp_path, "## Blocks\n\nA winch is a drum that pulls a rope in with a "
                   "crank handle. Wrap the sheet round it three times.") == ["winch"]


@pytest.mark.parametrize("section", [
    "## Blocks\n\nA winch is a good idea on a bigger boat.",
    "## Blocks\n\nA winch is a thing that helps.",
    "## Blocks\n\nSharing is the rule on a club boat, but ask the skipper first.",
    "## Blocks\n\nTrim the sail first. A winch is a drum that pulls a rope in.",
])
def test_a_judgement_an_everyday_kind_or_a_sentence_not_opening_its_section_adds_none(
        tmp_path, section):
    assert missing(tmp_path, section) == []
