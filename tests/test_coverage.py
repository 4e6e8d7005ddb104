"""The term coverage report on a course written to hold exactly one of every problem.

``tests/data/coverage`` is built twice: first with an extra section that the second build no
longer has, so the live version also reports exactly one broken anchor.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lessonsearch.build import build_index
from lessonsearch.coverage import LESSONS_AGREE, _agree, _conflicts, coverage_report
from lessonsearch.coverage_allow import (
    KINDS,
    course_allow,
    entry_name,
    parse_allow,
    read_allow,
    refuse_malformed,
    silence,
)
from lessonsearch.errors import LessonFormatError
from lessonsearch.glossary_table import Definition, TermRecord
from lessonsearch.index_store import current_version
from lessonsearch.searcher import Searcher
from lessonsearch.term_lookup import Glossary

COURSE = Path(__file__).resolve().parent / "data" / "coverage"
RETIRED = "\n## Cooling down\n\nLeave the loaf on a rack for an hour before slicing.\n"
BASE = "https://bake.example.test/bread/"


def build_coverage_index(folder: Path, full: bool = False) -> Path:
    """The coverage course built twice into ``folder/index``; the first build had one more
    section (``shaping-and-baking#cooling-down``). ``full``: the second build is a full one."""
    course = Path(shutil.copytree(COURSE, folder / "course"))
    lesson = course / "lessons" / "03-shaping-and-baking.md"
    original = lesson.read_text(encoding="utf-8")
    lesson.write_text(original + RETIRED, encoding="utf-8")
    build_index(course / "lessons", course / "glossary", folder / "index")
    lesson.write_text(original, encoding="utf-8")
    build_index(course / "lessons", course / "glossary", folder / "index", full=full)
    return folder / "index"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_coverage_index(tmp_path_factory.mktemp("coverage"))


@pytest.fixture(scope="module")
def report(index_dir: Path):
    return coverage_report(current_version(index_dir), index_dir)


def test_each_problem_is_found_exactly_once(report):
    names = {kind: [entry_name(kind, e) for e in report.problems(kind)] for kind in KINDS}
    assert names == {
        "used-before-definition": ["levain"],
        "missing-from-glossary": ["autolyse"],
        "unused": ["banneton"],
        "undefined": ["oven spring"],
        "conflicting": ["crumb"],
        "candidates": ["bulk fermentation"],
        "broken-anchors": ["shaping-and-baking#cooling-down"],
        "needs-definition": ["poolish"],
    }


def test_the_course_files_allow_list_silences_the_second_unused_entry(report):
    assert report.allowed == 1
    assert "couche" in {t.term for t in report.terms}
    assert report.summary()["unused"] == 1


def test_used_before_definition_links_both_lessons(report):
    (entry,) = report.used_before_definition
    assert [p.lesson for p in entry.used_at] == ["flour-and-water"]
    assert entry.used_at[0].url == BASE + "flour-and-water#letting-it-sit"
    assert entry.defined_at.lesson == "the-starter"
    assert entry.defined_at.url == BASE + "the-starter#feeding-a-culture"
    assert "called a levain" in entry.defined_at.sentence


def test_each_term_has_its_entry_definition_lessons_and_first_mention(report):
    terms = {t.term: t for t in report.terms}
    hydration = terms["hydration"]
    assert hydration.glossary_entry == "glossary/glossary.md:14"
    assert hydration.defined_at.url == BASE + "flour-and-water#weighing-everything"
    assert [p.lesson for p in hydration.lessons] == [
        "flour-and-water", "the-starter", "shaping-and-baking"]
    assert hydration.first_mention.url == BASE + "flour-and-water#weighing-everything"
    assert terms["autolyse"].glossary_entry is None and not terms["autolyse"].in_glossary
    assert terms["banneton"].mentions == 0 and terms["banneton"].first_mention is None


def test_a_glossary_duplicate_shows_both_texts(report):
    (conflict,) = report.conflicting
    assert conflict.reason == "glossary-duplicate"
    kept, other = conflict.definitions
    assert (kept.source, other.source) == ("glossary/glossary.md:11", "glossary/more-terms.md:1")
    assert kept.text.startswith("The inside of a baked loaf")
    assert other.text == "The crust and the inside of a loaf together."


def test_a_duplicate_written_in_other_capitals_is_named_as_each_place_writes_it(tmp_path):
    """The warning at Durability's line named "Durability", and the report's conflict did
    too, while the term, its row and the entry kept are "durability": the warning names
    both spellings, and the conflict the term as its row does."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-writes.md").write_text(
        "---\ntitle: Writes\n---\n\n## Committing\n\nDurability is why a commit waits "
        "for the disk.\n", encoding="utf-8")
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "a.md").write_text(
        "durability\n: Committed data survives a crash.\n", encoding="utf-8")
    (tmp_path / "glossary" / "b.md").write_text(
        "Durability\n: What a committed write keeps after a power cut.\n", encoding="utf-8")
    built = build_index(tmp_path / "lessons", tmp_path / "glossary", tmp_path / "index")
    assert [str(p) for p in built.problems] == [
        "glossary/b.md:1: The term 'Durability' is defined here and at glossary/a.md:1 (as "
        "'durability') with a different definition; the one at glossary/a.md:1 is kept."]
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert [t.term for t in report.terms] == ["durability"]
    assert [entry_name("conflicting", e) for e in report.conflicting] == ["durability"]
    (conflict,) = report.conflicting
    assert [d.text for d in conflict.definitions] == [
        "Committed data survives a crash.", "What a committed write keeps after a power cut."]


def test_a_compound_named_after_a_kind_stays_whole_beside_its_last_word_in_the_glossary(
        tmp_path):
    """"We call this type inference." names type inference, whatever the glossary holds: read
    as the glossary's inference, the naming took inference's definition, and its use in an
    earlier lesson was reported as used before its definition."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-costs.md").write_text(
        "---\ntitle: Costs\n---\n\n## Serving\n\nInference is cheap next to training.\n",
        encoding="utf-8")
    (tmp_path / "lessons" / "02-types.md").write_text(
        "---\ntitle: Types\n---\n\n## Types\n\nThe compiler works out each type itself. "
        "We call this type inference.\n", encoding="utf-8")
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "a.md").write_text(
        "inference\n: Running a trained model on new input.\n", encoding="utf-8")
    build_index(tmp_path / "lessons", tmp_path / "glossary", tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert report.used_before_definition == ()
    assert [(t.term, bool(t.defined_at)) for t in report.terms] == [
        ("inference", False), ("type inference", True)]


PLANNER_STORES = ("The planner stores each answer it computes and looks it up when the same "
                  "query comes back.")


def _memo_course(tmp_path: Path, naming: str, term: str = "memoization", also: str = ""
                 ) -> Path:
    """A course whose second lesson names the technique the first uses, and a glossary with
    ``term`` as its one term (and ``also`` its aliases)."""
    lessons, terms = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    terms.mkdir()
    (lessons / "01-reads.md").write_text(
        "# Reads\n\n## Repeats\n\nThe same query often comes back; memoization, which the "
        "next lesson shows, answers it without a second scan.\n", encoding="utf-8")
    (lessons / "02-plans.md").write_text(
        f"# Plans\n\n## Remembering\n\n{PLANNER_STORES} {naming}\n", encoding="utf-8")
    (terms / "glossary.md").write_text(
        f"{term}\n: Keeping each computed answer so the same input is not computed "
        f"again.\n{f'  Also: {also}' if also else ''}\n", encoding="utf-8")
    build_index(lessons, terms, tmp_path / "index")
    return tmp_path / "index"


@pytest.mark.parametrize("naming", ["We call this pattern memoization.",
                                    "We call this structure memoization.",
                                    "We call this step memoization.",
                                    # after a step of a sequence
                                    "Next we call this pattern memoization.",
                                    # words after the name with an article in them
                                    "We call this pattern memoization in the rest of the "
                                    "course.",
                                    # after a step, with words saying where it holds
                                    "Next, we call this pattern memoization in every "
                                    "lesson.",
                                    "First, we call this structure memoization from now on.",
                                    # the British spelling, which the glossary does not list
                                    "We call this pattern memoisation."])
def test_a_pointing_kind_before_a_glossary_term_is_not_part_of_the_name(tmp_path, naming):
    """"We call this pattern memoization" names the glossary's memoization: read as
    "pattern memoization" (as "pattern matching" is read), the false term took memoization's
    definition and its mentions, so its use in the lesson before was never reported."""
    index = _memo_course(tmp_path, naming)
    report = coverage_report(current_version(index), index)
    assert [t.term for t in report.terms] == ["memoization"]
    (entry,) = report.used_before_definition
    assert entry.term == "memoization"
    assert [p.lesson for p in entry.used_at] == ["reads"]
    # shown after the sentence "this pattern" points back to
    assert entry.defined_at.sentence == f"{PLANNER_STORES} {naming}"


def test_a_pointing_kind_before_a_glossary_alias_is_not_part_of_the_name(tmp_path):
    index = _memo_course(tmp_path, "We call this pattern memoisation.",
                         also="memoisation")
    report = coverage_report(current_version(index), index)
    assert [(t.term, t.defined_at.lesson) for t in report.terms] == [("memoization", "plans")]


@pytest.mark.parametrize(("naming", "term", "also"), [
    # the lesson writes the two words again: they are its term
    ("We call this pattern memoization. Pattern memoization costs memory.", "memoization",
     ""),
    # the glossary has the two words
    ("We call this pattern memoization.", "pattern memoization", "memoization"),
])
def test_a_pointing_kind_stays_in_a_name_the_lesson_or_glossary_writes_whole(
        tmp_path, naming, term, also):
    index = _memo_course(tmp_path, naming, term, also)
    report = coverage_report(current_version(index), index)
    defined = {t.term: t.defined_at is not None for t in report.terms}
    assert defined["pattern memoization"]
    assert not defined.get("memoization")


def _tables_course(tmp_path: Path, naming: str, glossary: str) -> Path:
    """A course whose second lesson holds ``naming`` and a glossary of ``glossary``'s terms,
    each with a definition."""
    lessons, terms = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    terms.mkdir()
    (lessons / "01-start.md").write_text(
        "# Start\n\n## Setup\n\nInstall the engine and open a shell.\n", encoding="utf-8")
    (lessons / "02-tables.md").write_text(
        f"# Tables\n\n## Layout\n\n{naming}\n\n## Reading\n\nA query reads every record "
        "and keeps the ones that match.\n", encoding="utf-8")
    (terms / "glossary.md").write_text(
        "".join(f"{term}\n: One of the words of databases.\n\n" for term in glossary.split(";")),
        encoding="utf-8")
    build_index(lessons, terms, tmp_path / "index")
    return tmp_path / "index"


@pytest.mark.parametrize("naming", [
    # the glossary's term in brackets, after another name cue in the sentence
    "Each table has columns (also known as fields) that hold one kind of value, and rows "
    "(also known as records) that hold one entry.",
    "A table has columns (also called fields) and rows (also called records).",
    # or before "also known as", giving it another name
    "Records, also known as rows, hold one entry each.",
])
def test_a_glossary_term_given_another_name_is_defined_where_it_is(tmp_path, naming):
    """"rows (also known as records)" is where the course introduces record: the term's
    lesson definition is that sentence, in the section that holds it."""
    index = _tables_course(tmp_path, naming, "record;field")
    report = coverage_report(current_version(index), index)
    defined = {t.term: t.defined_at for t in report.terms}
    assert defined["record"].lesson == "tables"
    assert defined["record"].sentence == naming
    assert "#layout" in defined["record"].url


def test_a_thing_given_a_name_of_its_own_defines_nothing_of_the_glossarys(tmp_path):
    """"a function, also called glob," names one function: the glossary's function is not
    defined there, nor does rows become a term of its own beside record."""
    index = _tables_course(tmp_path, "The library holds a function, also called glob, that "
                           "lists files.", "function;record")
    report = coverage_report(current_version(index), index)
    defined = {t.term: t.defined_at for t in report.terms}
    assert defined["function"] is None
    assert defined["glob"].lesson == "tables"


@pytest.mark.parametrize(("naming", "named"), [
    # the name before is what the new name is made of: a kind of it, not another name
    ("Behind a second layer of NAT, known as carrier-grade NAT, calls often fail.",
     "carrier-grade NAT"),
    ("Past one layer of NAT, also known as double NAT, peers rarely meet.", "double NAT"),
    # no adverb says the two are one thing
    ("Between the stores sits a proxy, known as the broker, that forwards each write.",
     "broker"),
])
def test_a_name_known_as_a_new_one_keeps_its_own_term(tmp_path, naming, named):
    """Only "X, also known as Y," gives X another name: the glossary's NAT (or proxy) is not
    defined by the sentence that names carrier-grade NAT (or the broker), which is a term of
    the lesson's own, defined there."""
    glossary = "NAT" if "NAT" in named else "proxy"
    index = _tables_course(tmp_path, naming, f"{glossary};record")
    report = coverage_report(current_version(index), index)
    defined = {t.term: t.defined_at for t in report.terms}
    assert defined[glossary] is None
    assert defined[named].lesson == "tables"
    assert defined[named].sentence == naming


def test_candidates_say_where_they_occur(report):
    (candidate,) = report.candidates
    assert candidate.kind == "collocation" and candidate.count == 4
    assert [p.lesson for p in candidate.lessons] == [
        "flour-and-water", "the-starter", "shaping-and-baking"]
    assert candidate.lessons[1].count == 2


def test_broken_anchors_name_the_old_link_and_the_version_that_had_it(index_dir, report):
    (broken,) = report.broken_anchors
    assert broken.old_url == BASE + "shaping-and-baking#cooling-down"
    versions = sorted(p.name for p in index_dir.glob("v-*"))
    assert broken.last_seen == versions[0]


def test_a_full_build_finds_the_same_broken_anchor_from_the_manifest(tmp_path: Path):
    """``--full`` ignores the build cache, where an incremental build keeps the anchors the
    live version published: it reads them from that version's manifest instead."""
    index_dir = build_coverage_index(tmp_path, full=True)
    report = coverage_report(current_version(index_dir), index_dir)
    assert [b.old_url for b in report.broken_anchors] == [BASE + "shaping-and-baking#cooling-down"]


def test_a_broken_anchor_is_carried_until_it_comes_back(tmp_path: Path):
    index_dir = build_coverage_index(tmp_path)
    course = tmp_path / "course"
    build_index(course / "lessons", course / "glossary", index_dir)
    again = coverage_report(current_version(index_dir), index_dir)
    assert [b.anchor for b in again.broken_anchors] == ["cooling-down"]
    lesson = course / "lessons" / "03-shaping-and-baking.md"
    lesson.write_text(lesson.read_text(encoding="utf-8") + RETIRED, encoding="utf-8")
    build_index(course / "lessons", course / "glossary", index_dir)
    assert coverage_report(current_version(index_dir), index_dir).broken_anchors == ()


def test_an_allow_file_silences_any_spelling_of_a_term(index_dir, tmp_path: Path):
    allow = tmp_path / "allow.txt"
    allow.write_text(
        "# accepted for now\n"
        "used-before-definition: Levains   # plural spelling still names the term\n"
        "candidates: Bulk Fermentation\n"
        "broken-anchors: shaping-and-baking#cooling-down\n",
        encoding="utf-8",
    )
    report = coverage_report(current_version(index_dir), index_dir, allow)
    assert report.used_before_definition == ()
    assert report.candidates == ()
    assert report.broken_anchors == ()
    assert report.allowed == 4
    assert len(report.missing_from_glossary) == 1


def test_a_candidate_allow_line_names_it_in_any_inflection(index_dir, tmp_path: Path):
    """A candidate is counted with its inflections, but "candidates: nine bar" silenced
    nothing beside the candidate "nine bars" (the line was "no such jargon candidate")."""
    allow = tmp_path / "allow.txt"
    allow.write_text("candidates: bulk fermentations\n", encoding="utf-8")
    report = coverage_report(current_version(index_dir), index_dir, allow)
    assert report.candidates == () and report.allow_warnings == ()
    allow.write_text("candidates: bulk fermentation vessel\n", encoding="utf-8")  # another
    report = coverage_report(current_version(index_dir), index_dir, allow)
    assert [c.phrase for c in report.candidates] == ["bulk fermentation"]
    assert [w.name for w in report.allow_warnings] == ["bulk fermentation vessel"]


def test_an_allow_line_that_silences_nothing_is_a_warning_saying_why(index_dir, tmp_path):
    allow = tmp_path / "allow.txt"
    allow.write_text(
        "unused: banetton           # a typo\n"
        "unused: banneton\n"
        "unused: levain             # a term, but used\n"
        "candidates: bulk fermentaton\n"
        "candidates: hydration      # in the glossary now\n"
        "broken-anchors: shaping-and-baking#cooling-dawn\n",
        encoding="utf-8",
    )
    report = coverage_report(current_version(index_dir), index_dir, allow)
    assert report.allowed == 2 and report.unused == ()  # banneton, and couche (course file)
    assert [(w.line, w.kind, w.name, w.suggestion) for w in report.allow_warnings] == [
        (1, "unused", "banetton", "banneton"),
        (3, "unused", "levain", None),
        (4, "candidates", "bulk fermentaton", "bulk fermentation"),
        (5, "candidates", "hydration", None),
        (6, "broken-anchors", "shaping-and-baking#cooling-dawn",
         "shaping-and-baking#cooling-down"),
    ]
    typo, used, candidate, now_a_term, anchor = map(str, report.allow_warnings)
    assert typo == (f"{allow}:1: 'unused: banetton' silences nothing: no term of the glossary "
                    "or the lessons is called that: a typo, or a term since removed "
                    "(did you mean 'banneton'?)")
    assert "no unused entry for 'levain': the line is stale" in used
    assert "no such jargon candidate: stale if the phrase no longer recurs, else a typo" in (
        candidate)
    assert "'hydration' is a term now" in now_a_term and "stale" in now_a_term
    assert "no such broken anchor, and the course has no such anchor: a typo" in anchor


def test_the_course_files_allow_lines_are_judged_too(index_dir):
    """The fixture's course file accepts ``unused: couche``, which silences an entry."""
    assert coverage_report(current_version(index_dir), index_dir).allow_warnings == ()
    version = current_version(index_dir)
    allow = read_allow(["unused: banetton"], None)
    (warning,) = silence(coverage_report(version, index_dir), allow,
                         Glossary.load(version)).allow_warnings
    assert str(warning).startswith(
        "the course file's [coverage] table: 'unused: banetton' silences nothing")
    assert warning.suggestion == "banneton"


def test_a_typo_is_offered_only_an_entry_listed_under_its_kind(index_dir, tmp_path):
    """``levain`` is used before it is defined, not unused: an ``unused`` line that means
    it would silence nothing either, so it is not offered as the fix."""
    allow = tmp_path / "allow.txt"
    allow.write_text("unused: levian\nused-before-definition: levian\n", encoding="utf-8")
    report = coverage_report(current_version(index_dir), index_dir, allow)
    unused, used = report.allow_warnings
    assert (unused.suggestion, used.suggestion) == (None, "levain")
    assert str(unused).endswith("a typo, or a term since removed; the report lists no unused "
                                "entry for the nearest term, 'levain'")
    assert str(used).endswith("(did you mean 'levain'?)")


def test_a_broken_anchor_line_whose_anchor_is_back_is_called_stale(tmp_path: Path):
    """A heading retitled and then restored: its anchor is back, and the retitled one's is
    broken now. The old line is stale; the new broken anchor is not what it meant."""
    index_dir = build_coverage_index(tmp_path)
    course = tmp_path / "course"
    lesson = course / "lessons" / "03-shaping-and-baking.md"
    original = lesson.read_text(encoding="utf-8")
    lesson.write_text(original.replace("## Building tension", "## Building tensions"),
                      encoding="utf-8")
    build_index(course / "lessons", course / "glossary", index_dir)
    lesson.write_text(original, encoding="utf-8")
    build_index(course / "lessons", course / "glossary", index_dir)
    allow = tmp_path / "allow.txt"
    allow.write_text("broken-anchors: shaping-and-baking#building-tension\n"
                     f"broken-anchors: {BASE}shaping-and-baking#building-tension\n",
                     encoding="utf-8")
    report = coverage_report(current_version(index_dir), index_dir, allow)
    assert "shaping-and-baking#building-tensions" in {
        entry_name("broken-anchors", b) for b in report.broken_anchors}
    for warning in report.allow_warnings:
        assert warning.suggestion is None
        assert str(warning).endswith("silences nothing: the course has this anchor again, so "
                                     "it is no broken anchor: the line is stale and can go")
    assert len(report.allow_warnings) == 2


def test_broken_anchor_lines_are_not_judged_without_an_earlier_version(tmp_path: Path):
    """A CI job that builds afresh knows no broken anchors, so it cannot call a line stale."""
    course = Path(shutil.copytree(COURSE, tmp_path / "course"))
    build_index(course / "lessons", course / "glossary", tmp_path / "index")
    allow = tmp_path / "allow.txt"
    allow.write_text("broken-anchors: shaping-and-baking#cooling-down\nunused: banetton\n",
                     encoding="utf-8")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index", allow)
    assert [w.name for w in report.allow_warnings] == ["banetton"]


def test_an_unknown_kind_in_the_allow_list_is_an_error_naming_the_line():
    with pytest.raises(LessonFormatError) as raised:
        refuse_malformed(parse_allow(["unused: banneton", "unsued: couche"],
                                     "coverage-allow.txt"))
    assert raised.value.line == 2
    assert str(raised.value).startswith("coverage-allow.txt:2: 'unsued: couche' is no "
                                        "allow-list line: 'unsued' is no kind of problem")
    assert str(raised.value).endswith("(did you mean 'unused: couche'?)")


def test_problem_lists_are_in_a_stable_order(index_dir, report):
    again = coverage_report(current_version(index_dir), index_dir)
    assert again == report
    assert [t.term for t in report.terms] == sorted((t.term for t in report.terms), key=str.lower)


def _lesson_definition(lesson: str, order: int, text: str) -> Definition:
    return Definition("lesson", text, f"{BASE}{lesson}", lesson, None, f"{BASE}{lesson}",
                      "naming", order)


def test_two_lessons_conflict_only_when_their_sentences_share_almost_nothing():
    agreeing = TermRecord("proof", "proof", None, None, False, (), (), (
        _lesson_definition("one", 1, "The final rise of a shaped loaf is its proof."),
        _lesson_definition("two", 2, "Proof means the last rise a shaped loaf gets before baking."),
    ), ())
    clashing = TermRecord("proof", "proof", None, None, False, (), (), (
        _lesson_definition("one", 1, "The final rise of a shaped loaf is its proof."),
        _lesson_definition("two", 2, "Proof is the alcohol strength printed on a spirit bottle."),
    ), ())
    position = {"one": 1, "two": 2}
    assert _conflicts([agreeing], (), position) == ()
    (conflict,) = _conflicts([clashing], (), position)
    assert conflict.reason == "lessons-disagree"
    assert [d.source for d in conflict.definitions] == ["one", "two"]
    assert 0 < LESSONS_AGREE < 1
    assert _agree("a loaf rises", "", set())  # nothing to compare is no conflict



def test_the_course_file_coverage_table_takes_lines_or_lists_per_kind(tmp_path: Path):
    (tmp_path / "lessonsearch.toml").write_text(
        '[coverage]\nallow = ["candidates: bulk fermentation"]\nunused = ["couche", "banneton"]\n',
        encoding="utf-8",
    )
    assert course_allow(tmp_path) == ([
        "candidates: bulk fermentation", "unused: couche", "unused: banneton"], [])
    assert course_allow(tmp_path / "other" / "lessons") == ([], [])  # none here nor the parent


def test_a_term_defined_where_no_mention_is_counted_names_its_lesson(tmp_path: Path):
    """A longer term takes the mention ("value perplexity" in the second section), and the
    first section's own "perplexity" is its definition: the row still names the lesson."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-scores.md").write_text(
        "# Scoring text\n\n## One\n\nWe call this value *perplexity*.\n\n"
        "## Two\n\nWe call this value perplexity.\n", encoding="utf-8")
    build_index(lessons, None, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    row = next(t for t in report.terms if t.term == "perplexity")
    assert row.mentions == 0
    assert row.defined_at is not None and row.defined_at.title == "Scoring text"


def test_an_abbreviation_with_a_digit_used_before_its_definition_is_reported(tmp_path: Path):
    """"two-phase commit (2PC)" defines the term, so the earlier lesson's "2PC" is a use of
    it before its definition."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-replicas.md").write_text(
        "# Replicas\n\n## Agreeing\n\nEvery replica must agree before a write lands, so the "
        "coordinator runs 2PC with each of them.\n", encoding="utf-8")
    (lessons / "02-commit.md").write_text(
        "# Commit protocols\n\n## Two phases\n\nThe coordinator asks every node to prepare, "
        "then tells them all to commit. This protocol is two-phase commit (2PC).\n",
        encoding="utf-8")
    build_index(lessons, None, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    (entry,) = report.used_before_definition
    assert entry.term == "two-phase commit"
    assert [p.lesson for p in entry.used_at] == ["replicas"]
    assert entry.defined_at.sentence == (
        "The coordinator asks every node to prepare, then tells them all to commit. "
        "This protocol is two-phase commit (2PC).")


def test_a_glossary_stub_is_listed_as_needing_a_definition(tmp_path: Path) -> None:
    """A term line above an empty ``:``, or a one-term file of front matter alone, was left
    out with a warning, and the coverage report never listed it: the editor's stub vanished.
    Readers still see no card without a definition; the report lists it until it has one."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    (glossary / "terms").mkdir(parents=True)
    (lessons / "01-net.md").write_text("# Networks\n\n## Delay\n\nJitter makes calls choppy.\n")
    (glossary / "glossary.md").write_text(
        "broadcast domain\n:\n\nrouter\n: A box that forwards packets.\n\nlatency\n:\n")
    (glossary / "terms" / "jitter.md").write_text("---\nterm: jitter\naliases: [pdv]\n---\n")
    (glossary / "terms" / "latency.md").write_text("---\nterm: Latency\n---\nHow long a "
                                                   "packet takes to arrive.\n")
    report = build_index(lessons, glossary, tmp_path / "index")
    assert [str(p) for p in report.problems] == [
        f"glossary/{where}: The term {term!r} has no definition yet; the glossary leaves it "
        "out until it has one, and the coverage report lists it under needs-definition."
        for where, term in [("glossary.md:1", "broadcast domain"), ("glossary.md:7", "latency"),
                            ("terms/jitter.md:2", "jitter")]]
    index = tmp_path / "index"
    found = coverage_report(current_version(index), index)
    # latency is defined in its own file: no gap, so not listed
    assert [(e.term, e.glossary_entry) for e in found.needs_definition] == [
        ("broadcast domain", "glossary/glossary.md:1"), ("jitter", "glossary/terms/jitter.md:2")]
    assert [t.term for t in found.terms] == ["Latency", "router"]
    assert found.summary()["needs_definition"] == 2
    allow = parse_allow(["needs-definition: Jitter", "needs-definition: gateway"], "allow.txt")
    quiet = silence(found, allow, Glossary([]))
    assert [e.term for e in quiet.needs_definition] == ["broadcast domain"]
    assert [w.reason for w in quiet.allow_warnings] == [
        "the report lists no such term without a definition, and no term is called that: a "
        "typo, or a stub since removed from the glossary"]


def test_a_needs_definition_line_for_a_defined_term_says_who_defines_it(tmp_path: Path
                                                                        ) -> None:
    """A needs-definition line for a term the glossary defines said "stale if the glossary
    defines it now, else a typo", when the report could tell which: it says the glossary
    (or a lesson) defines it, and that the line can go."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    glossary.mkdir()
    (lessons / "01-net.md").write_text(
        "# Networks\n\n## Edges\n\nTwo networks are joined by a kind of router called a "
        "gateway. The router forwards packets; the gateway joins.\n")
    (glossary / "glossary.md").write_text("router\n: A box that forwards packets.\n\n"
                                          "jitter\n:\n")
    index = tmp_path / "index"
    build_index(lessons, glossary, index)
    allow = tmp_path / "allow.txt"
    allow.write_text("needs-definition: Routers\nneeds-definition: gateway\n"
                     "needs-definition: jiter\n")
    report = coverage_report(current_version(index), index, allow)
    assert [str(w) for w in report.allow_warnings] == [
        f"{allow}:1: 'needs-definition: Routers' silences nothing: the glossary defines "
        "'router' now, so it needs no definition: the line is stale and can go",
        f"{allow}:2: 'needs-definition: gateway' silences nothing: a lesson defines 'gateway' "
        "and the glossary writes no stub of it, so it needs no definition: the line is stale "
        "and can go",
        f"{allow}:3: 'needs-definition: jiter' silences nothing: the report lists no such "
        "term without a definition, and no term is called that: a typo, or a stub since "
        "removed from the glossary (did you mean 'jitter'?)"]


def test_a_described_kind_called_x_is_where_the_course_first_defines_x(tmp_path: Path):
    """"a subtle kind of anomaly called a phantom read" defines phantom read in the first
    lesson: a later lesson's "That anomaly is called a phantom read." is not where it is
    taught, and the first lesson's use of it after the definition is no use before it."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-isolation.md").write_text(
        "# Isolation\n\n## Reading twice\n\nA report that reads a range twice may see new "
        "rows the second time, a subtle kind of anomaly called a phantom read. A phantom "
        "read breaks totals.\n", encoding="utf-8")
    (lessons / "02-locks.md").write_text(
        "# Range locks\n\n## Locking gaps\n\nNew rows inside the range break the report. That "
        "anomaly is called a phantom read.\n", encoding="utf-8")
    build_index(lessons, None, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert report.used_before_definition == ()
    row = next(t for t in report.terms if t.term == "phantom read")
    assert row.defined_at.lesson == "isolation"


def test_a_see_also_name_a_lesson_quotes_after_is_a_is_linked(tmp_path: Path):
    """'… is a "dead tuple".' defines dead tuple, so the glossary's "See also: dead tuple"
    names a term and the build gives no warning for it."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    glossary.mkdir()
    (lessons / "01-cleanup.md").write_text(
        "# Cleanup\n\n## Deleted rows\n\nA row that is marked deleted but stays on disk until "
        "the next cleanup is a \"dead tuple\".\n", encoding="utf-8")
    (glossary / "glossary.md").write_text(
        "vacuum\n: Removing the rows a table no longer needs.\n  See also: dead tuple\n",
        encoding="utf-8")
    report = build_index(lessons, glossary, tmp_path / "index")
    assert [str(p) for p in report.problems] == []
    coverage = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    row = next(t for t in coverage.terms if t.term == "dead tuple")
    assert row.defined_at.lesson == "cleanup"


def test_a_classifying_sentence_defines_only_a_glossary_term(tmp_path: Path) -> None:
    """"This is a journal." classifies what the sentences before described as the glossary's
    journal; "This is a bug." after a broken loop, with no bug in the glossary, is a remark,
    and made bug a term of the course with that sentence as its definition. So with a
    measure: "… is the latency." names the glossary's latency, "… is the price." is a
    remark."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    glossary.mkdir()
    (lessons / "01-logs.md").write_text(
        "# Logs\n\n## Writing ahead\n\nEvery change is first appended to a file on disk, and "
        "only then applied to the tables. This is a journal.\n\n## Loops\n\nThe counter is "
        "never raised, so the loop never stops. This is a bug. A hack hides it.\n\n## Waiting"
        "\n\nThe time one write needs to reach the disk is the latency. The amount we "
        "pay each month is the price.\n", encoding="utf-8")
    (glossary / "glossary.md").write_text(
        "journal\n: A file of changes written before they are applied.\n\nlatency\n: How "
        "long one operation takes.\n", encoding="utf-8")
    build_index(lessons, glossary, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert {t.term: t.defined_at.sentence for t in report.terms if t.defined_at} == {
        "journal": "Every change is first appended to a file on disk, and only then applied "
                   "to the tables. This is a journal.",
        "latency": "The time one write needs to reach the disk is the latency."}
    assert [t.term for t in report.terms] == ["journal", "latency"]


def test_a_plain_definition_in_a_text_lesson_defines_the_glossary_term(tmp_path: Path):
    """A plain-text lesson has no emphasis: "A p-value is the probability, …" under "The
    definition" defines the glossary's p-value, so its use in an earlier lesson is a use
    before its definition. "A histogram is …" opening a section names nothing the glossary
    lacks, and "A model is trained on …" says what is done to a model."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    glossary.mkdir()
    (lessons / "01-chance.txt").write_text(
        "Chance\n\nWhat luck looks like\n\nA small p-value makes us doubt that luck alone "
        "explains what we saw.\n", encoding="utf-8")
    (lessons / "02-testing.txt").write_text(
        "Testing a hypothesis\n\nThe definition\n\nA p-value is the probability, computed "
        "assuming the null hypothesis is true, of data at least as extreme as ours.\n\n"
        "Pictures\n\nA histogram is a chart of counts in bins.\n\nFitting\n\nA model is "
        "trained on the data before we test it.\n", encoding="utf-8")
    (glossary / "glossary.md").write_text(
        "p-value\n: How likely data this extreme are if only chance is at work.\n\nmodel\n: A "
        "description of how the data arise.\n", encoding="utf-8")
    build_index(lessons, glossary, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    defined = {t.term: t.defined_at for t in report.terms if t.defined_at}
    assert list(defined) == ["p-value"]
    assert defined["p-value"].lesson == "testing"
    assert defined["p-value"].sentence.startswith("A p-value is the probability, computed")
    assert [u.term for u in report.used_before_definition] == ["p-value"]
    assert "histogram" not in [t.term for t in report.terms]


SCRIPTS = "Some files hold shell commands that run one after another. We call these scripts."


def test_a_thing_one_calls_after_call_these_names_only_a_glossary_term(tmp_path: Path):
    """"We call these scripts." names the glossary's script (or its alias) and is read after
    the sentence that says what "these" are; a thing one calls that the glossary lacks
    ("We call these queries."), one the sentence before names already ("two helper
    functions"), or one after "Now" is called, not named."""
    lessons, glossary = tmp_path / "lessons", tmp_path / "glossary"
    lessons.mkdir()
    glossary.mkdir()
    (lessons / "01-shell.md").write_text(
        f"# Shell\n\n## Scripts\n\n{SCRIPTS}\n\n## Helpers\n\nThe module defines two "
        "helper functions. We call these functions.\n\n## Steps\n\nThe loader and the "
        "parser turn text into rows. Now we call these functions.\n\n## Reads\n\nA few "
        "statements read the same rows on every page. We call these queries.\n\n## Stored"
        "\n\nSome statements live in the database and run by name. We call these "
        "procedures.\n", encoding="utf-8")
    (glossary / "glossary.md").write_text(
        "script\n: A file of commands run in order.\n\nfunction\n: A named piece of code."
        "\n\nstored procedure\n: Code kept in the database.\n  Also: procedure\n",
        encoding="utf-8")
    build_index(lessons, glossary, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert {t.term: t.defined_at.sentence for t in report.terms if t.defined_at} == {
        "script": SCRIPTS,
        "stored procedure": "Some statements live in the database and run by name. We call "
                            "these procedures."}
    assert sorted(t.term for t in report.terms) == ["function", "script", "stored procedure"]
    searcher = Searcher.open(tmp_path / "index")
    try:
        card = searcher.glossary.find("scripts")
        assert card is not None and card.term == "script"
        assert (card.lesson_definition.text, card.lesson_definition.url) == (
            SCRIPTS, "/lessons/shell#scripts")
    finally:
        searcher.close()


def test_a_title_naming_a_term_a_section_writes_is_that_sections_use(tmp_path: Path):
    """"Routers and gateways" was a use of router at the lesson's first section, which does
    not write it: a reader following the mention landed where the term is not, and the
    title's use came on top of the section's. The section that writes it is the use; a term
    only the title names is still one, at the first section."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-edges.md").write_text(
        "---\ntitle: Routers and gateways\n---\n\n## Cables\n\nPlug the cable in first.\n\n"
        "## Forwarding\n\nA router forwards packets; every router keeps a table.\n",
        encoding="utf-8")
    glossary = tmp_path / "glossary"
    glossary.mkdir()
    (glossary / "glossary.md").write_text(
        "router\n: A box that forwards packets.\n\ngateway\n: Where a network meets "
        "another.\n", encoding="utf-8")
    index = tmp_path / "index"
    build_index(lessons, glossary, index)
    report = coverage_report(current_version(index), index)
    rows = {t.term: t for t in report.terms}
    assert [(p.lesson, p.count, p.url.rpartition("#")[2]) for p in rows["router"].lessons] == [
        ("edges", 2, "forwarding")]
    assert [(p.lesson, p.count, p.url.rpartition("#")[2]) for p in rows["gateway"].lessons] == [
        ("edges", 1, "cables")]
    assert rows["router"].mentions == 2


def test_a_title_or_a_heading_that_names_a_term_is_a_use_of_it_once(tmp_path: Path):
    """"Building a cold frame" names the term though none of its three sections' text does:
    the lesson uses it, once (not once a section, though each is indexed with the title);
    a heading names it once too, in its own section."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-build.md").write_text(
        "---\ntitle: Building a cold frame\n---\n\n# Building a cold frame\n\n## Timber\n\n"
        "Cut four boards to length.\n\n## Glass\n\nBed the pane in putty.\n\n## Hinges\n\n"
        "Screw the lid on last.\n", encoding="utf-8")
    (lessons / "02-sow.md").write_text(
        "---\ntitle: Sowing early\n---\n\n## Trays\n\nSow thinly in trays.\n\n"
        "## Cold frame or windowsill\n\nEither keeps the frost off.\n", encoding="utf-8")
    (lessons / "03-water.md").write_text(
        "---\ntitle: Watering\n---\n\n## Cans\n\nWater the cold frame in the morning.\n",
        encoding="utf-8")
    glossary = tmp_path / "glossary"
    glossary.mkdir()
    (glossary / "glossary.md").write_text(
        "cold frame\n: A glass-topped box that shelters young plants.\n", encoding="utf-8")
    build_index(lessons, glossary, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    row = next(t for t in report.terms if t.term == "cold frame")
    assert [(p.lesson, p.count) for p in row.lessons] == [("build", 1), ("sow", 1),
                                                          ("water", 1)]
    assert (row.mentions, row.lesson_count) == (3, 3)
    assert row.first_mention is not None and row.first_mention.lesson == "build"
    assert not report.unused


def test_an_allow_line_for_a_measure_says_no_such_phrase_is_ever_a_candidate(index_dir, tmp_path):
    """'candidates: nine bar' (a line kept from before a number in words began no candidate)
    names a phrase the lessons may still write: "stale if the phrase no longer recurs, else a
    typo" was neither. A phrase that begins or ends with a number, a function word or a
    common verb is never listed, and the warning says so."""
    allow = tmp_path / "allow.txt"
    allow.write_text("candidates: nine bar\ncandidates: 12 grams\ncandidates: proof the\n"
                     "candidates: New Yorks\n", encoding="utf-8")
    report = coverage_report(current_version(index_dir), index_dir, allow)
    nine, grams, the, capitals = (w.reason for w in report.allow_warnings)
    assert nine.startswith("no phrase that begins or ends with 'nine' is ever a jargon "
                           "candidate") and nine.endswith("the line can go")
    assert "begins or ends with '12'" in grams and "begins or ends with 'the'" in the
    assert "no such jargon candidate" in capitals  # a name: judged as before


def test_a_term_in_a_check_question_is_one_use(tmp_path: Path):
    """The check's heading is its question ("Check: When is slack water?"), which its text
    writes too: the question's term was two uses, and a term written once in the lesson and
    once in its check had three."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-bar.json").write_text(json.dumps({
        "lesson": {"slug": "bar", "title": "Crossing the bar", "position": 1},
        "body": {"format": "markdown",
                 "text": "## Timing\n\nCross at slack water, when the current rests.\n"},
        "check": {"question": "When is slack water?",
                  "options": [{"text": "When the current rests", "correct": True},
                              {"text": "At noon", "correct": False}]}}), encoding="utf-8")
    glossary = tmp_path / "glossary"
    glossary.mkdir()
    (glossary / "glossary.md").write_text(
        "slack water\n: The still spell between two tides.\n", encoding="utf-8")
    build_index(lessons, glossary, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    row = next(t for t in report.terms if t.term == "slack water")
    assert (row.mentions, [(p.lesson, p.count) for p in row.lessons]) == (2, [("bar", 2)])


def test_a_plain_text_lesson_defines_a_term_at_its_place_in_the_course(tmp_path):
    """``02-resin.txt`` gives no position but its file's number: it comes before lesson 3,
    which uses the term it defines. Sent to the end of the course, it was reported as
    defining the term after lesson 3 used it."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-start.md").write_text(
        "---\ntitle: Start\nposition: 1\n---\n\n## Tools\n\nA knife and a brush.\n",
        encoding="utf-8")
    (lessons / "02-resin.txt").write_text(
        "Resin\n\nWhat seals the gaps\n\nPropolis is a sticky resin that bees gather from "
        "tree buds to seal cracks.\n", encoding="utf-8")
    (lessons / "03-cleaning.md").write_text(
        "---\ntitle: Cleaning\nposition: 3\n---\n\n## Scraping\n\nScrape the propolis off "
        "the frames with the knife.\n", encoding="utf-8")
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "a.md").write_text(
        "propolis\n: Resin bees use to seal their hive.\n", encoding="utf-8")
    build_index(lessons, tmp_path / "glossary", tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert report.used_before_definition == ()
    (term,) = report.terms
    assert (term.term, term.defined_at.lesson) == ("propolis", "resin")
