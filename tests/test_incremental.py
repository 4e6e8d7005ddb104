"""Incremental builds: only changed lessons are re-read and rewritten, and the index they leave
answers exactly as a full build of the same files does."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from lessonsearch import candidates, glossary_build, model, responses, whoosh_writer
from lessonsearch import course as course_module
from lessonsearch.build import build_index
from lessonsearch.build_cache import CACHE_FILE, BuildCache
from lessonsearch.completions import Completions
from lessonsearch.course import read_course
from lessonsearch.index_store import current_version, read_manifest, same_as_live
from lessonsearch.searcher import Searcher
from lessonsearch.whoosh_index import documents

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from generate_course import generate  # noqa: E402

QUERIES = ["kv cache", "key-value cache", "temperature", "token", '"keys and values"',
           "prompt OR logit", "memory -cache", "temprature", "how does the cache grow?"]


def side_files(index: Path) -> tuple[dict, dict]:
    """What a version holds beside Whoosh: the spelling counts and every SQLite table."""
    version = current_version(index)
    spelling = json.loads((version / "spelling.json").read_text(encoding="utf-8"))
    db = sqlite3.connect(version / "glossary.sqlite")
    try:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        tables = {n: sorted(db.execute(f"SELECT * FROM {n}"), key=repr) for n in names}
    finally:
        db.close()
    return spelling, tables


def answers(index: Path) -> list[dict]:
    searcher = Searcher.open(index)
    try:
        found = [responses.search_body(searcher.search(q, limit=20)) for q in QUERIES]
        terms = responses.terms_body(searcher.glossary.records, searcher.term_forms())
    finally:
        searcher.close()
    return [*found, terms]


@pytest.fixture(autouse=True)
def one_lesson_per_segment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tiny course fits one chunk; chunks of three documents give each lesson its own."""
    monkeypatch.setattr(whoosh_writer, "CHUNK_DOCS", 3)


@pytest.fixture
def course(tmp_path: Path, tiny_course: Path) -> Path:
    shutil.copytree(tiny_course, tmp_path / "course")
    return tmp_path / "course"


def hits(index: Path, query: str) -> list:
    searcher = Searcher.open(index)
    try:
        return list(searcher.search(query).results)
    finally:
        searcher.close()


def build(course: Path, out: Path, full: bool = False):
    return build_index(course / "lessons", course / "glossary", out, full=full)


def test_an_unchanged_course_rewrites_nothing(course: Path, tmp_path: Path):
    out = tmp_path / "index"
    assert build(course, out).rewritten == 4
    again = build(course, out)
    assert again.rewritten == 0
    assert again.sections == 13 and again.terms == 4


def test_one_changed_lesson_is_the_only_one_rewritten_and_answers_match_a_full_build(
    course: Path, tmp_path: Path
):
    out = tmp_path / "index"
    build(course, out)
    notes = course / "lessons" / "04-notes.txt"
    notes.write_text(notes.read_text() + "\nA new passage about temperature and memory.\n")
    incremental = build(course, out)
    assert incremental.rewritten == 1
    full = build(course, tmp_path / "full", full=True)
    assert full.rewritten == 4
    assert answers(out) == answers(tmp_path / "full")
    assert side_files(out) == side_files(tmp_path / "full")
    assert [h.lesson for h in hits(out, "new passage")] == ["notes"]


def test_a_retitled_lesson_is_the_only_one_rewritten(course: Path, tmp_path: Path):
    """Its neighbours now link to it by its new title, but the index stores no such link:
    their documents are as they were."""
    out = tmp_path / "index"
    build(course, out)
    lesson = course / "lessons" / "02-sampling.json"
    text = lesson.read_text()
    lesson.write_text(text.replace('"Sampling and temperature"', '"Sampling, retitled"'))
    assert build(course, out).rewritten == 1
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")
    assert side_files(out) == side_files(tmp_path / "full")


PREFIX_CACHING = ("Keeping those stored values for an opening that many requests share is "
                  "called prefix caching, and it is why a long fixed instruction costs little "
                  "after the first request.")


def test_a_definition_in_a_lesson_without_headings_weighs_on_its_own_paragraph(
        course: Path, tmp_path: Path):
    """The notes lesson is plain text: its paragraphs share one anchor, none. A paragraph
    added to define prefix caching, then moved to the end, gives the term's weight to
    itself, not to the lesson's opening paragraph, which never writes the term and was a
    hit for it; an incremental build answers as a full one after each edit."""
    out = tmp_path / "index"
    build(course, out)
    notes = course / "lessons" / "04-notes.txt"
    paragraphs = notes.read_text().split("\n\n")
    for number, text in enumerate([paragraphs[:3] + [PREFIX_CACHING] + paragraphs[3:],
                                   [*paragraphs, PREFIX_CACHING]]):
        notes.write_text("\n\n".join(text))
        assert build(course, out).rewritten == 1
        full = tmp_path / f"full-{number}"
        build(course, full, full=True)
        found = hits(out, "prefix caching")
        assert found == hits(full, "prefix caching")
        assert side_files(out) == side_files(full)
        assert "is called <mark>prefix</mark> <mark>caching</mark>" in found[0].snippet
        assert found[0].url.endswith("#:~:text=Keeping%20those%20stored%20values%20for%20an")
        assert not [h for h in found if "#:~:text=A%20prompt%20that" in h.url], number


def test_a_removed_lesson_disappears_from_an_incremental_build(course: Path, tmp_path: Path):
    out = tmp_path / "index"
    build(course, out)
    (course / "lessons" / "03-kv-cache.txt").unlink()
    report = build(course, out)
    assert report.lessons == 3 and report.rewritten < 3
    assert all(h.lesson != "kv-cache" for h in hits(out, "cache"))
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")


def test_a_glossary_change_reaches_every_lesson_that_mentions_the_term(
    course: Path, tmp_path: Path
):
    out = tmp_path / "index"
    build(course, out)
    glossary = course / "glossary" / "glossary.md"
    glossary.write_text(glossary.read_text().replace("Also: key-value cache, KV-cache",
                                                     "Also: key-value cache, KV-cache, kv store"))
    report = build(course, out)
    assert 0 < report.rewritten < 4  # only lessons that mention the KV cache
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")


def test_a_damaged_cache_only_costs_a_full_build(course: Path, tmp_path: Path):
    out = tmp_path / "index"
    build(course, out)
    (current_version(out) / CACHE_FILE).write_bytes(b"not a pickle")
    report = build(course, out)
    assert report.rewritten == 4
    assert hits(out, "temperature")
    # A new version is published even though it answers alike: it brings a cache again.
    assert not report.unchanged and current_version(out).name == report.version


# --- A rebuild with nothing changed -------------------------------------------------------------


def index_folder(out: Path) -> tuple[str, list[str]]:
    """The live version and every name in the index folder."""
    return os.readlink(out / "current"), sorted(p.name for p in out.iterdir())


def test_a_rebuild_with_nothing_changed_keeps_the_live_version(course: Path, tmp_path: Path):
    """No new version, so the server's ETags stay as they are and replicas see no change."""
    out = tmp_path / "index"
    first = build(course, out)
    before = index_folder(out)
    again = build(course, out)
    assert again.unchanged and again.version == first.version
    assert index_folder(out) == before  # no new version, no .tmp left, current untouched
    assert again.summary().startswith(
        "Read 4 lessons, 13 sections, 4 terms; 0 warnings, 0 skipped files; ")
    assert again.summary().endswith(f"(nothing changed: version {first.version} stays live)")
    assert build(course, out).version == first.version


def test_a_lesson_touched_but_not_edited_changes_nothing(course: Path, tmp_path: Path):
    out = tmp_path / "index"
    version = build(course, out).version
    notes = course / "lessons" / "04-notes.txt"
    later = notes.stat().st_mtime_ns + 60 * 10**9
    os.utime(notes, ns=(later, later))
    assert build(course, out).version == version
    assert os.readlink(out / "current") == version


def test_a_course_with_warnings_reports_them_again_when_nothing_changed(
        course: Path, tmp_path: Path):
    (course / "lessons" / "05-broken.json").write_text("{", encoding="utf-8")
    out = tmp_path / "index"
    first = build(course, out)
    again = build(course, out)
    assert again.unchanged and again.version == first.version
    assert again.problems == first.problems and again.skipped == 1
    assert "; 1 warning, 1 skipped file; " in again.summary()
    strict = build_index(course / "lessons", course / "glossary", out, strict=True)
    assert not strict.published and strict.problems == first.problems


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


EDITS = {
    "a lesson's text": lambda c: _append(c / "lessons" / "04-notes.txt", "\nOne more line.\n"),
    "a glossary definition": lambda c: _replace(
        c / "glossary" / "glossary.md", "fixed list of every token", "fixed list of tokens"),
    "a glossary alias": lambda c: _replace(  # KV-cache is the name's own spelling
        c / "glossary" / "glossary.md", "Also: key-value cache, KV-cache", "Also: KV-cache"),
    "the course title": lambda c: _replace(
        c / "lessons" / "lessonsearch.toml", "A Tiny Course on Models", "A Tiny Course"),
    "a module's lessons": lambda c: _replace(
        c / "lessons" / "lessonsearch.toml", '["03-kv-cache.txt", "04-notes.txt"]',
        '["03-kv-cache.txt"]'),
    "the coverage allow-list": lambda c: _append(
        c / "lessons" / "lessonsearch.toml", '\n[coverage]\nallow = ["unused: vocabulary"]\n'),
    "a lesson removed": lambda c: (c / "lessons" / "04-notes.txt").unlink(),
    "a lesson renamed": lambda c: (c / "lessons" / "04-notes.txt").rename(
        c / "lessons" / "05-notes.txt"),
}


@pytest.mark.parametrize("edit", EDITS)
def test_any_edit_publishes_a_new_version(course: Path, tmp_path: Path, edit: str):
    out = tmp_path / "index"
    first = build(course, out).version
    EDITS[edit](course)
    report = build(course, out)
    assert not report.unchanged and report.version != first
    assert os.readlink(out / "current") == report.version
    assert build(course, out).version == report.version  # and then stays


def test_another_base_url_publishes_a_new_version(course: Path, tmp_path: Path):
    out = tmp_path / "index"
    lessons, glossary = course / "lessons", course / "glossary"
    first = build_index(lessons, glossary, out, base_url="https://one.example/").version
    assert build_index(lessons, glossary, out, base_url="https://one.example/").version == first
    report = build_index(lessons, glossary, out, base_url="https://two.example/")
    assert report.version != first == read_manifest(out / first)["version"]
    assert any(x["url"].startswith("https://two.example/")
               for x in read_manifest(current_version(out))["lessons"])


def test_full_always_publishes_a_new_version(course: Path, tmp_path: Path):
    out = tmp_path / "index"
    first = build(course, out).version
    report = build(course, out, full=True)
    assert report.published and not report.unchanged and report.version != first
    assert os.readlink(out / "current") == report.version


@pytest.mark.parametrize("damage", ["glossary file gone", "manifest unreadable"])
def test_a_damaged_live_version_is_replaced(course: Path, tmp_path: Path, damage: str):
    out = tmp_path / "index"
    first = build(course, out).version
    if damage == "glossary file gone":
        (out / first / "glossary.sqlite").unlink()
    else:
        (out / first / "manifest.json").write_text("{", encoding="utf-8")
    report = build(course, out)
    assert report.version != first and os.readlink(out / "current") == report.version
    assert hits(out, "temperature")


def test_a_version_differing_in_any_row_or_byte_is_not_the_live_one(course: Path,
                                                                      tmp_path: Path):
    """The glossary file a rebuild patches has other bytes than the live one's, and the
    same rows; any row or byte changed, or a file more, is a difference."""
    out = tmp_path / "index"
    build(course, out)
    live = current_version(out)
    manifest = read_manifest(live)

    def copy(change) -> Path:
        other = shutil.copytree(live, tmp_path / f"copy{len(list(tmp_path.glob('copy*')))}")
        (other / "manifest.json").unlink()  # not written yet, when a build compares
        change(other)
        return other

    def sql(*statements: str):
        def run(folder: Path) -> None:
            db = sqlite3.connect(folder / "glossary.sqlite")
            for statement in statements:
                db.execute(statement)
            db.commit()
            db.close()
        return run

    def one_byte(folder: Path) -> None:
        segment = max((folder / "whoosh").glob("*.pst"), key=lambda p: p.stat().st_size)
        data = bytearray(segment.read_bytes())
        data[len(data) // 2] ^= 1
        segment.write_bytes(bytes(data))

    assert same_as_live(live, copy(lambda folder: None), manifest, {CACHE_FILE})
    rewritten = copy(sql("INSERT INTO aliases VALUES (0, 'gone again')",
                         "DELETE FROM aliases WHERE term_id = 0"))
    assert (rewritten / "glossary.sqlite").read_bytes() != (live / "glossary.sqlite").read_bytes()
    assert same_as_live(live, rewritten, manifest, {CACHE_FILE})
    for change in (sql("UPDATE terms SET definition = definition || '.' WHERE term = 'token'"),
                   sql("UPDATE terms SET term = upper(term) WHERE term = 'token'"),
                   sql("UPDATE mentions SET count = count + 1 WHERE (term_id, course_order) = "
                       "(SELECT term_id, course_order FROM mentions LIMIT 1)"),
                   one_byte,
                   lambda folder: (folder / "extra.json").write_text("{}")):
        assert not same_as_live(live, copy(change), manifest, {CACHE_FILE})
    assert not same_as_live(live, copy(lambda folder: None), {**manifest, "counts": {}},
                            {CACHE_FILE})


# --- A generated course -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated course of 40 lessons (its lessons mention the glossary's terms)."""
    folder = tmp_path_factory.mktemp("generated")
    generate(folder, 320)
    return folder


@pytest.mark.parametrize("edit, patched", [
    ("a paragraph", True),       # one lesson's mentions change
    ("a heading", True),         # and the completions with it
    ("a title", True),           # the same text under another name: its rows, candidates,
                                 # the lessons' completions
    ("a new section", True),     # only its lesson's sections move: a document's place is
                                 # its lesson's number and its own place in the lesson
    ("an empty lesson", True),   # no sections, but the four lessons after it are renumbered
    ("a lesson added last", True),
    ("the last lesson removed", True),
    ("a removed lesson", False),  # 35 lessons renumbered
])
def test_the_glossary_file_is_patched_or_rewritten_and_equals_a_full_build(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str,
        patched: bool):
    """The completions are patched with the glossary file, unless a quarter of the lessons'
    numbers hold other headings than before."""
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)
    lesson = sorted((course / "lessons").glob("*.md"))[5]
    text = lesson.read_text()
    lost = {"a heading": lesson.stem, "a removed lesson": lesson.stem}  # anchors it loses
    if edit == "a paragraph":
        lesson.write_text(text + "\nThe tokenizer and the cache, once more.\n")
    elif edit == "a heading":
        lesson.write_text(text.replace("\n## ", "\n## Renamed ", 1) + "\nThe cache again.\n")
    elif edit == "a title":
        lesson.write_text(text.replace("title: ", "title: Retitled ", 1))
    elif edit == "an empty lesson":
        (course / "lessons" / "zz-empty.md").write_text("---\ntitle: Nothing yet\n"
                                                         "position: 36\n---\n")
    elif edit == "a new section":
        lesson.write_text(text.replace("\n## ", "\n## Inserted\n\nThe cache here.\n\n## ", 1))
    elif edit == "a lesson added last":
        (course / "lessons" / "zz-last.md").write_text(
            "---\ntitle: What comes next\nposition: 99\n---\n\n## Further reading\n\n"
            "The tokenizer and the cache, as others wrote of them.\n")
    elif edit == "the last lesson removed":
        last = read_course(course / "lessons").course.lessons[-1]
        (course / last.source).unlink()
        lost[edit] = last.slug
    else:
        lesson.unlink()
    written_anew, completed_anew = [], []
    monkeypatch.setattr(glossary_build, "write_glossary_table",
                        spy(glossary_build.write_glossary_table, written_anew))
    monkeypatch.setattr(glossary_build, "write_completions",
                        spy(glossary_build.write_completions, completed_anew))
    build(course, out)
    assert bool(written_anew) is not patched
    assert bool(completed_anew) is not patched
    build(course, tmp_path / "full", full=True)
    spelling, tables = side_files(out)
    full_spelling, full_tables = side_files(tmp_path / "full")
    # A renamed heading or a removed lesson loses anchors the previous version published; a
    # first build has no previous version.
    assert {row[0] for row in tables.pop("broken_anchors")} == (
        {lost[edit]} if edit in lost else set())
    assert full_tables.pop("broken_anchors") == []
    assert (spelling, tables) == (full_spelling, full_tables)
    assert answers(out) == answers(tmp_path / "full")


def test_a_lesson_added_first_leaves_the_work_of_the_lessons_it_moves_down(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A lesson added at the start of the course moves every later lesson down, and those
    that take their position from their place get a new one. Their definitions and
    mentions follow from what they say, not from where they stand, and are not looked
    for again; what the index stores of their place is."""
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)
    placed = [lesson.slug for lesson in read_course(course / "lessons").course.lessons
              if lesson.source.endswith(".txt")]  # plain text: its position is its place
    assert placed
    missed: dict[str, list] = {}
    remember_many = BuildCache.remember_many

    def counted(self, kind, keyed, compute, prepare=None, **how):
        missed[kind] = [key for key, _ in keyed if key not in self._old.get(kind, {})]
        return remember_many(self, kind, keyed, compute, prepare, **how)

    monkeypatch.setattr(BuildCache, "remember_many", counted)
    (course / "lessons" / "00-welcome.md").write_text(
        "---\ntitle: Welcome\nposition: 1\n---\n\n## Before we start\n\n"
        "A tokenizer is what cuts text into tokens.\n")
    report = build(course, out)
    assert len(missed["definitions"]) == len(missed["mentions"]) == 1  # the new lesson's
    assert report.rewritten > len(placed)  # their documents hold their position
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")
    assert side_files(out) == side_files(tmp_path / "full")
    manifest = json.loads((current_version(out) / "manifest.json").read_text())
    positions = {lesson["slug"]: lesson["position"] for lesson in manifest["lessons"]}
    assert positions["welcome"] == 1 and all(positions[slug] > 1 for slug in placed)


def test_a_glossary_entry_added_or_removed_counts_again_only_the_lessons_holding_its_words(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Every term's name is in every lesson's mentions key, so a new entry changes them
    all; but a lesson that holds none of the changed term's words is scanned alike by
    both matchers, and its mentions are kept. A longer name over two terms' words
    ("vector token") takes mentions from both; taking it away gives them back."""
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)
    glossary = course / "glossary" / "glossary.md"
    original = glossary.read_text()
    lessons = read_course(course / "lessons").course.lessons
    holding = [lesson for lesson in lessons  # "label" or "labels", where mentions are read
               if any("label" in f"{s.heading} {s.text}".lower() for s in lesson.sections)]
    assert 0 < len(holding) < len(lessons) // 2
    missed: list[int] = []
    remember_many = BuildCache.remember_many

    def counted(self, kind, keyed, compute, prepare=None, **how):
        if kind == "mentions":
            missed.append(sum(key not in self._old.get(kind, {}) for key, _ in keyed))
        return remember_many(self, kind, keyed, compute, prepare, **how)

    monkeypatch.setattr(BuildCache, "remember_many", counted)
    written_anew: list = []
    monkeypatch.setattr(glossary_build, "write_glossary_table",
                        spy(glossary_build.write_glossary_table, written_anew))
    monkeypatch.setattr(glossary_build, "write_completions",
                        spy(glossary_build.write_completions, written_anew))
    anew = []
    label = original + "\nlabel noise\n: Labels that are wrong.\n"
    edits = [
        ("label noise", label),
        ("vector token", label + "\nvector token\n: A token's vector.\n"),
        ("vector token removed", label),
        ("label noise removed", original),
    ]
    for edit, text in edits:
        glossary.write_text(text)
        written_anew.clear()
        build(course, out)
        anew.append(len(written_anew))
        full = tmp_path / f"full-{edit}"
        build(course, full, full=True)
        assert answers(out) == answers(full), edit
        assert side_files(out) == side_files(full), edit
    assert missed[1::2] == [len(lessons)] * 4  # the full builds count every lesson
    # Each rebuild counts again the lessons holding "label", or "vector" or "token" (all).
    assert missed[::2] == [len(holding), len(lessons), len(lessons), len(holding)]
    # A term's id is a digest of its name: the glossary file and the completions are
    # patched, for the lessons counted again, unless they are a quarter of the course.
    assert len(holding) <= glossary_build.PATCH_AT_MOST * len(lessons)
    assert anew == [0, 2, 2, 0]
    terms = {t["term"]: t for t in answers(tmp_path / "full-vector token")[-1]["terms"]}
    assert terms["vector token"]["mentions"] > 0


def spy(function, calls: list):
    def wrapped(*args, **kwargs):
        calls.append(args)
        return function(*args, **kwargs)
    return wrapped


def test_questions_rank_alike_however_the_course_is_split_into_segments(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A question ranks by how many of its words a section holds, counted in the whole
    course: counted per segment (as Whoosh does), a section scored 0 wherever its segment
    lacked the question's other words."""
    build(generated, tmp_path / "many")  # a segment per lesson (CHUNK_DOCS above)
    monkeypatch.setattr(whoosh_writer, "CHUNK_DOCS", 10_000)
    build(generated, tmp_path / "one")
    assert answers(tmp_path / "many") == answers(tmp_path / "one")


def segment_sizes(index: Path) -> list[int]:
    from whoosh import index as whoosh_index

    ix = whoosh_index.open_dir(str(current_version(index) / "whoosh"))
    try:
        return [segment.doc_count() for segment in ix._segments()]
    finally:
        ix.close()


def test_a_rewritten_chunk_is_cut_over_the_cores_while_the_segment_budget_allows(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """One edited lesson rewrites its whole chunk: in two halves, one per core, as long as
    the index stays within MAX_SEGMENTS segments; answers stay those of a full build."""
    monkeypatch.setattr(whoosh_writer, "CHUNK_DOCS", 100)
    monkeypatch.setattr(whoosh_writer, "workers", lambda: 2)
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)
    before = segment_sizes(out)
    assert len(before) == 4 and min(before[:-1]) >= 100
    monkeypatch.setattr(whoosh_writer, "MAX_SEGMENTS", 5)

    first = sorted((course / "lessons").glob("*.md"))[1]
    first.write_text(first.read_text() + "\nThe tokenizer and the cache, once more.\n")
    report = build(course, out)
    after = segment_sizes(out)
    assert len(after) == 5 and after[:3] == before[1:]  # the kept chunks, then the halves
    assert sum(after[-2:]) == before[0] and max(after[-2:]) < before[0] * 3 // 4
    assert report.rewritten < report.lessons // 2
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")

    # The budget is spent: the next rewritten chunk is written whole.
    last = sorted((course / "lessons").glob("*.md"))[-1]
    last.write_text(last.read_text() + "\nMemory, once more.\n")
    build(course, out)
    assert len(segment_sizes(out)) == 5
    build(course, tmp_path / "full2", full=True)
    assert answers(out) == answers(tmp_path / "full2")
    assert len(segment_sizes(tmp_path / "full2")) == 4


@pytest.mark.parametrize("lessons", [4, 80])  # 80: read by the pool's processes
def test_files_that_cannot_be_read_are_the_same_problems_whether_the_cache_is_used_or_not(
        tmp_path: Path, lessons: int):
    """A build with nothing to reuse reads each file in the process that parses it; a build
    with the previous one's cache reads only the files that changed. Either way a file
    that cannot be read is named, with its line where it has one, and the rest is read."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    for n in range(lessons):
        (folder / f"{n:03d}-lesson.md").write_text(
            f"# Lesson {n}\n\n## Part {n}\n\nTopic{n} covers item{n} and thing{n}.\n")
    (folder / "notes.docx").write_bytes(b"PK\x03\x04")
    (folder / "binary.md").write_bytes(b"# Binary\n\x00\x01")
    (folder / "broken.json").write_text('{"title": "Broken",\n "sections": [\n')
    out = tmp_path / "index"

    def problems(report) -> list[str]:
        assert report.lessons == lessons and report.skipped == 3
        return sorted(str(p) for p in report.problems)

    seen: list[tuple[int, int, str]] = []
    first = problems(build_index(folder, None, out,  # nothing to reuse
                                 progress=lambda *done: seen.append(done)))
    assert [(done, total) for done, total, _ in seen] == [(n, lessons + 3)
                                                          for n in range(1, lessons + 4)]
    assert sorted(name for _, _, name in seen) == sorted(
        f"lessons{os.sep}{path.name}" for path in folder.iterdir())
    assert any("notes.docx: unknown file type" in p for p in first)
    assert any("binary.md: looks like a binary file" in p for p in first)
    assert any("broken.json:3:" in p for p in first)
    assert problems(build_index(folder, None, out)) == first  # from the cache: none parsed
    (folder / "broken.json").write_text('{"title": "Broken",\n "sections": [\n\n')
    (folder / "001-lesson.md").write_text("# Lesson 1\n\n## Part one\n\nChanged item1.\n")
    again = problems(build_index(folder, None, out))  # the changed files read again
    assert again == [p.replace("broken.json:3:", "broken.json:4:") for p in first]
    assert again == problems(build_index(folder, None, tmp_path / "full", full=True))
    assert answers_of(out, "changed") == answers_of(tmp_path / "full", "changed") != []


def answers_of(index: Path, query: str) -> list:
    return [hit.url for hit in hits(index, query)]


def test_unchanged_files_are_not_read_again_and_a_same_size_edit_is_seen(
        course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A file is taken at its previous key when its size, times and inode are the ones the
    last build saw; any write moves its change time. (Times here are seconds old, not
    minutes: the margin for coarse file system clocks is set to nothing.)"""
    monkeypatch.setattr(course_module, "RACY_NS", 0)
    out = tmp_path / "index"
    build(course, out)
    opened: list = []
    monkeypatch.setattr(course_module, "_lesson_bytes", spy(course_module._lesson_bytes, opened))
    assert build(course, out).rewritten == 0
    assert opened == []

    notes = course / "lessons" / "04-notes.txt"
    text = notes.read_text()
    assert "cut from the front" in text
    notes.write_text(text.replace("front", "start", 1))  # the same size, a new word
    report = build(course, out)
    assert [display for _, display in opened] == ["lessons/04-notes.txt"]
    assert report.rewritten == 1
    assert "notes" in [h.lesson for h in hits(out, "cut from the start")]
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")


def test_a_run_of_edits_keeps_every_incremental_build_equal_to_a_full_one(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Edits one after another, as an author makes them: chunks cut, cut again, emptied and
    refilled, the segment budget spent; after each build the index answers as a full build
    of the same files does."""
    monkeypatch.setattr(whoosh_writer, "CHUNK_DOCS", 40)
    monkeypatch.setattr(whoosh_writer, "MAX_SEGMENTS", 11)
    monkeypatch.setattr(whoosh_writer, "workers", lambda: 2)
    monkeypatch.setattr(course_module, "RACY_NS", 0)  # trust unchanged files' status
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    lessons = course / "lessons"
    out = tmp_path / "index"
    build(course, out)
    first = len(segment_sizes(out))

    def append(name: str, text: str) -> None:
        path = lessons / name
        path.write_text(path.read_text() + f"\n{text}\n")

    edits = [
        lambda: append("lesson-00002.md", "The tokenizer, once more."),
        lambda: append("lesson-00002.md", "And the cache, again."),  # its chunk is cut again
        lambda: append("lesson-00003.md", "Entropy."),
        lambda: (lessons / "lesson-00004.md").unlink(),
        lambda: (lessons / "lesson-00100.md").write_text(
            "---\ntitle: Appended at the end\n---\n\n## Cache misses\n\nThe cache misses.\n"),
        lambda: append("lesson-00022.md", "## A new heading\n\nThe vocabulary grows."),
        lambda: append("lesson-00033.md", "Logits, once more."),
        lambda: append("lesson-00038.md", "Temperature, once more."),
        lambda: (lessons / "lesson-00002.md").unlink(),
    ]
    for number, edit in enumerate(edits):
        edit()
        report = build(course, out)
        assert report.rewritten < report.lessons
        assert len(segment_sizes(out)) <= max(11, first)
        full = tmp_path / f"full-{number}"
        build(course, full, full=True)
        assert answers(out) == answers(full), number
        spelling, tables = side_files(out)
        full_spelling, full_tables = side_files(full)
        tables.pop("broken_anchors"), full_tables.pop("broken_anchors")
        assert (spelling, tables) == (full_spelling, full_tables), number
    assert len(segment_sizes(out)) > first  # chunks were cut on the way


def test_candidates_found_again_read_only_the_changed_sections(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Jargon candidates come from what every section holds (its runs of words, capitalised
    phrases, acronyms); a rebuild that must find them again (its sampled text changed) takes
    the unchanged sections' from the cache."""
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)
    cut: list = []
    monkeypatch.setattr(candidates, "_section_facts", spy(candidates._section_facts, cut))
    lesson = course / "lessons" / "lesson-00005.md"
    lesson.write_text(lesson.read_text() + "\nThe Hugging Face tokenizer, once more.\n")
    build(course, out)
    assert len(cut) == 1 and "Hugging Face" in cut[0][1]
    build(course, out)  # nothing changed: the candidates themselves are reused
    assert len(cut) == 1
    other = course / "lessons" / "lesson-00009.md"
    other.write_text(other.read_text() + "\nThe GitHub copy of the cache.\n")
    build(course, out)  # the facts were kept through the build that reused the candidates
    assert len(cut) == 2 and "GitHub" in cut[1][1]
    build(course, tmp_path / "full", full=True)
    assert side_files(out)[1]["candidates"] == side_files(tmp_path / "full")[1]["candidates"]


def sections_unpickled(monkeypatch: pytest.MonkeyPatch) -> list:
    """Each lesson's sections as they are unpickled from here on (``StoredSections``)."""
    unpickled: list = []
    load = model.StoredSections._load

    def loaded(sections):
        if sections._sections is None:
            unpickled.append(sections)
        return load(sections)

    monkeypatch.setattr(model.StoredSections, "_load", loaded)
    return unpickled


def test_a_rebuild_unpickles_the_sections_of_only_the_lessons_it_writes_again(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An unchanged lesson comes from the build cache with its sections still pickled: its
    documents, links, anchors and place in the tables come from their outline, and whether
    the jargon candidates' sample changed from digests kept of its text."""
    monkeypatch.setattr(candidates, "MAX_DOCUMENTS", 20)  # as in a large course: a sample
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)
    unpickled = sections_unpickled(monkeypatch)
    lesson = course / "lessons" / "lesson-00005.md"
    lesson.write_text(lesson.read_text() + "\nOne more sentence about the cache.\n")
    report = build(course, out)
    assert 1 <= report.rewritten < report.lessons
    assert len(unpickled) == report.rewritten  # the edited lesson and those of its chunk
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")
    assert side_files(out) == side_files(tmp_path / "full")


def test_an_edit_in_a_sampled_section_counts_only_that_sections_words_again(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The jargon candidates are found again when a section they are drawn from changes:
    from what the cache keeps of the other sections, found by their text's digest (no
    unchanged lesson is unpickled), and from the sample's n-gram counts, patched with the
    one section's old and new runs rather than counted again."""
    monkeypatch.setattr(candidates, "MAX_DOCUMENTS", 20)  # as in a large course: a sample
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)
    doc = next(d for d in candidates.sample(list(documents(read_course(course / "lessons")
                                                               .course)))
               if d.kind == "section" and d.heading and d.lesson.format == "markdown")
    counted: list[int] = []
    count = candidates.NgramCounts.of.__func__

    def spy(cls, runs):
        runs = list(runs)
        counted.append(len(runs))
        return count(cls, runs)

    monkeypatch.setattr(candidates.NgramCounts, "of", classmethod(spy))
    unpickled = sections_unpickled(monkeypatch)
    lesson = course / doc.lesson.source
    text = lesson.read_text()
    where = text.index("\n\n", text.index(f"## {doc.heading}\n")) + 2
    said = "One sourdough starter feeds the next sourdough starter; each sourdough starter grows."
    lesson.write_text(f"{text[:where]}{said}\n\n{text[where:]}")
    report = build(course, out)
    assert len(unpickled) == report.rewritten
    runs = len(candidates._section_facts(doc.heading, doc.body)[0])
    assert counted and max(counted) <= runs + 3  # the section's runs, before and after
    build(course, tmp_path / "full", full=True)
    assert side_files(out) == side_files(tmp_path / "full")
    assert "sourdough starter" in {phrase for _, phrase, *_ in side_files(out)[1]["candidates"]}


def test_a_section_added_to_one_lesson_leaves_the_rest_of_the_glossary_and_candidates(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """What authors do most, after rewording: a new heading. The sample the jargon
    candidates come from keeps its sections (a section is in it by a checksum of its id,
    not by its place), and no other lesson's rows in the glossary file move."""
    monkeypatch.setattr(candidates, "MAX_DOCUMENTS", 20)  # as in a large course: a sample
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)

    def sampled() -> set[str]:
        docs = documents(read_course(course / "lessons").course)
        return {doc.id for doc in candidates.sample(list(docs))}

    before = sampled()
    lesson = sorted((course / "lessons").glob("*.md"))[5]
    text = lesson.read_text()
    for name in ("Inserted", "Added", "Another part", "More on this"):
        lesson.write_text(text.replace("\n## ", f"\n## {name}\n\nThe cache here.\n\n## ", 1))
        if sampled() == before:  # the new section is not in the sample (one in 32 is)
            break
    assert sampled() == before
    found_again, written_anew = [], []
    monkeypatch.setattr(glossary_build, "find_candidates",
                        spy(glossary_build.find_candidates, found_again))
    monkeypatch.setattr(glossary_build, "write_glossary_table",
                        spy(glossary_build.write_glossary_table, written_anew))
    report = build(course, out)
    assert report.rewritten < report.lessons // 4
    assert found_again == [] and written_anew == []
    build(course, tmp_path / "full", full=True)
    assert side_files(out) == side_files(tmp_path / "full")
    assert answers(out) == answers(tmp_path / "full")


def test_completions_are_patched_where_headings_change_and_a_repeat_takes_the_first_place(
        generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A heading written in several lessons is suggested once, with the link of its first
    place in the course. Added before its first place, a heading takes that place; taken
    away again, it gives the place back. Only the edited lesson's headings are written."""
    course = Path(shutil.copytree(generated, tmp_path / "course"))
    out = tmp_path / "index"
    build(course, out)
    files = sorted((course / "lessons").glob("*.md"))
    later = next(line[3:] for line in files[20].read_text().splitlines()
                 if line.startswith("## "))
    early = files[5]
    text = early.read_text()
    written_anew: list = []
    monkeypatch.setattr(glossary_build, "write_completions",
                        spy(glossary_build.write_completions, written_anew))

    def suggested(index: Path) -> list[str]:
        found = Completions(current_version(index)).complete(later.upper())
        return [s.target for s in found if s.kind == "heading" and s.text.lower() == later.lower()]

    assert [url.split("#")[0].rsplit("/", 1)[1] for url in suggested(out)] == [files[20].stem]
    for number, edit in enumerate([text + f"\n## {later.upper()}\n\nThe same heading.\n", text]):
        early.write_text(edit)
        written_anew.clear()
        build(course, out)
        assert written_anew == []  # patched
        full = tmp_path / f"full-{number}"
        build(course, full, full=True)
        (spelling, tables), (full_spelling, full_tables) = side_files(out), side_files(full)
        tables.pop("broken_anchors"), full_tables.pop("broken_anchors")  # the anchor removed
        assert (spelling, tables) == (full_spelling, full_tables)
        where = files[5] if number == 0 else files[20]
        assert [url.split("#")[0].rsplit("/", 1)[1] for url in suggested(out)] == [where.stem]


# --- Lesson files renamed -----------------------------------------------------------------------


def work_done_anew(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many entries of each kind of the build cache the builds from here on compute
    anew, the rest being taken from the previous build's cache."""
    missed: dict[str, int] = {}
    remember, remember_many = BuildCache.remember, BuildCache.remember_many

    def one(self, kind, key, compute):
        missed[kind] = missed.get(kind, 0) + (key not in self._old.get(kind, {}))
        return remember(self, kind, key, compute)

    def many(self, kind, keyed, compute, prepare=None, **how):
        new = {key for key, _ in keyed if key not in self._old.get(kind, {})}
        missed[kind] = missed.get(kind, 0) + len(new)
        return remember_many(self, kind, keyed, compute, prepare, **how)

    monkeypatch.setattr(BuildCache, "remember", one)
    monkeypatch.setattr(BuildCache, "remember_many", many)
    return missed


def rename(lessons: Path, old: str, new: str) -> None:
    """``git mv old new``, and the course file's line for it made to name the new file."""
    (lessons / old).rename(lessons / new)
    course_file = lessons / "lessonsearch.toml"
    if course_file.exists():
        _replace(course_file, f'"{old}"', f'"{new}"')


@pytest.mark.parametrize("chunk_docs", [3, 10_000])  # a segment per lesson; one for them all
@pytest.mark.parametrize("old, new", [
    ("01-tokens.md", "01-tokens-and-vocabularies.md"),  # its front matter names its slug
    ("02-sampling.json", "02-temperature.json"),        # an export names its slug and link
])
def test_a_lesson_file_renamed_with_its_slug_kept_rewrites_no_lesson(
        course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk_docs: int,
        old: str, new: str):
    """The lesson keeps its slug, link, module and place: its documents are what they were,
    and so are its definitions and mentions. Only the file is read again (its name is in
    what it parses to: the warnings name it). The chunk holding it was written again
    whole, with every lesson in it: all four, in a course of one chunk."""
    monkeypatch.setattr(whoosh_writer, "CHUNK_DOCS", chunk_docs)
    out = tmp_path / "index"
    build(course, out)
    anew = work_done_anew(monkeypatch)
    rename(course / "lessons", old, new)
    report = build(course, out)
    assert not report.unchanged  # the manifest names the new file
    assert f"1 lesson renamed: lessons{os.sep}{old} → lessons{os.sep}{new}; " in report.summary()
    assert report.rewritten == 0
    assert anew["lessons"] == 1
    assert anew["definitions"] == anew["mentions"] == anew["indexed terms"] == 0
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")
    assert side_files(out) == side_files(tmp_path / "full")
    assert build(course, out).unchanged


def test_a_lesson_file_renamed_with_its_slug_from_its_name_rewrites_that_lesson_only(
        course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A plain-text lesson's slug is its file's name: renamed, its documents hold another
    slug and link (its old page a moved link). Only its own work is done again; the other
    lessons' segments are kept."""
    out = tmp_path / "index"
    build(course, out)
    before = segment_sizes(out)
    anew = work_done_anew(monkeypatch)
    rename(course / "lessons", "03-kv-cache.txt", "03-key-value-cache.txt")
    report = build(course, out)
    assert "(slug kv-cache → key-value-cache)" in report.summary()
    assert report.rewritten == 1 and len(segment_sizes(out)) == len(before)
    assert anew["lessons"] == anew["definitions"] == anew["mentions"] == 1
    found = {h.lesson for h in hits(out, "kv cache")}
    assert "key-value-cache" in found and "kv-cache" not in found
    build(course, tmp_path / "full", full=True)
    assert answers(out) == answers(tmp_path / "full")
    (spelling, tables), (full_spelling, full_tables) = (side_files(out),
                                                        side_files(tmp_path / "full"))
    # Its old page moved with its bytes (coverage_facts): a moved link, not broken anchors;
    # a build with no version before it has neither.
    assert tables.pop("broken_anchors") == full_tables.pop("broken_anchors") == []
    assert [row[:4] for row in tables.pop("moved_links")] == [(
        "key-value-cache", f"lessons{os.sep}03-key-value-cache.txt",
        "https://courses.example.test/tiny/kv-cache",
        "https://courses.example.test/tiny/key-value-cache")]
    assert full_tables.pop("moved_links") == []
    assert (spelling, tables) == (full_spelling, full_tables)


TEN_LESSONS_QUERIES = ["widget", "gadget3", "part 5", "bolt OR nut", "sprocket -widget"]


def ten_lessons(folder: Path, course_file: bool) -> Path:
    """Ten Markdown lessons of seven sections each, numbered by their file names; the first
    five name their slug in front matter, the others take it from the file name."""
    lessons = folder / "lessons"
    lessons.mkdir(parents=True)
    names = [f"{n:02d}-part-{n}.md" for n in range(1, 11)]
    parts = ["bolt", "nut", "sprocket", "gear", "axle", "spring", "lever"]
    for n, name in enumerate(names, start=1):
        head = f"---\ntitle: Part {n}\nslug: part-{n}\n---\n\n" if n <= 5 else f"# Part {n}\n\n"
        body = "".join(f"## The {part} of part {n}\n\nEach widget holds a {part}; gadget{n} "
                       f"turns it {k + 1} times.\n\n" for k, part in enumerate(parts))
        (lessons / name).write_text(head + body, encoding="utf-8")
    if course_file:
        listed = ", ".join(f'"{name}"' for name in names)
        (lessons / "lessonsearch.toml").write_text(
            f'[course]\ntitle = "Ten parts"\n\n[[module]]\ntitle = "All"\nlessons = [{listed}]\n',
            encoding="utf-8")
    return lessons


def searched(index: Path) -> list[dict]:
    searcher = Searcher.open(index)
    try:
        return [responses.search_body(searcher.search(q, limit=50)) for q in TEN_LESSONS_QUERIES]
    finally:
        searcher.close()


@pytest.mark.parametrize("course_file", [True, False])
def test_renaming_one_of_ten_lessons_rewrites_only_the_documents_that_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, course_file: bool):
    """The course a tester renamed a lesson in: ten lessons, the first eight in one chunk.
    A file renamed with its slug kept rewrote its chunk, eight lessons whose documents were
    all as they were; it rewrites none. A file whose name is its slug has documents of
    another slug: its chunk is written again, and only its own work is done again. After
    each, the index answers as a full build of the same files."""
    monkeypatch.setattr(whoosh_writer, "CHUNK_DOCS", 50)  # eight lessons of seven sections
    lessons = ten_lessons(tmp_path / "course", course_file)
    out = tmp_path / "index"
    assert build_index(lessons, None, out).rewritten == 10
    assert segment_sizes(out) == [56, 14]
    anew = work_done_anew(monkeypatch)
    rename(lessons, "03-part-3.md", "03-the-third-part.md")  # slug: part-3 in front matter
    report = build_index(lessons, None, out)
    assert (report.rewritten, anew["lessons"], anew["mentions"]) == (0, 1, 0)
    assert segment_sizes(out) == [56, 14]
    build_index(lessons, None, tmp_path / "full", full=True)
    assert searched(out) == searched(tmp_path / "full")

    anew.clear()
    rename(lessons, "07-part-7.md", "07-the-seventh-part.md")  # slug: part-7 → the-seventh-part
    report = build_index(lessons, None, out)
    assert "(slug part-7 → the-seventh-part)" in report.summary()
    assert report.rewritten == 8 and anew["lessons"] == anew["mentions"] == 1
    assert segment_sizes(out)[0] == 14  # the last chunk's segment, kept
    build_index(lessons, None, tmp_path / "full-2", full=True)
    assert searched(out) == searched(tmp_path / "full-2")
    assert {hit["lesson"] for hit in searched(out)[1]["results"]} == {"part-3"}
