"""What a term's card and page show of where lessons define it, and which names find it.

A definition that points back ("We call this step a checkpoint.") is shown with the sentence
it points back to; a term several lessons define is shown by the definition that says what
it is itself. A name a lesson spells out beside a glossary acronym ("change data capture
(CDC)", with CDC in the glossary) is an alias of the glossary's term, and the other way round.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from web_fixtures import Page, serving

from lessonsearch.build import build_index
from lessonsearch.coverage import coverage_report
from lessonsearch.index_store import current_version

BASE = "https://db.example.test/storage/"

GLOSSARY = """\
write-ahead log
: A log of every change, written before the change reaches the data files.

data file
: A file on disk that holds a table's rows.
  Also: data

CDC
: Reading a database's changes as a stream, for other systems to follow.

vacuum
: The job that gives the space of deleted rows back.
"""

LESSONS = {
    "01-pages.md": """\
# Pages and flushing

## Writing pages back

Dirty pages stay in memory for a while. Every few minutes the engine writes all of them to
the data files at once. We call this step a checkpoint.

## Crashes

The write-ahead log (WAL) keeps every change until a checkpoint has written it. After a crash
the engine replays the WAL from the last checkpoint.

## Dead rows

That job is called compaction.
""",
    "02-recovery.md": """\
# Recovery

## Making pages durable

A **checkpoint** is the moment the engine has written every dirty page to disk, so recovery
never reads the log from before it.

## Following changes

Other services read the log through change data capture (CDC), which turns each committed
change into an event.
""",
}


def _course(folder: Path, lessons: dict[str, str] = LESSONS) -> Path:
    """The lessons and ``GLOSSARY`` built into ``folder/index``."""
    (folder / "lessons").mkdir(parents=True)
    (folder / "glossary").mkdir()
    (folder / "glossary" / "glossary.md").write_text(GLOSSARY, encoding="utf-8")
    for name, text in lessons.items():
        (folder / "lessons" / name).write_text(text, encoding="utf-8")
    build_index(folder / "lessons", folder / "glossary", folder / "index", base_url=BASE)
    return folder / "index"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _course(tmp_path_factory.mktemp("cards"))


@pytest.fixture
def client(index_dir: Path):
    with serving(index_dir) as client:
        yield client


def _page(client, url: str) -> Page:
    got = client.get(url)
    assert got.status_code == 200, url
    return Page(got.get_data(as_text=True))


# --- A definition that points back, and the clearest of several ------------------------------


def test_a_term_several_lessons_define_is_shown_by_the_one_that_says_what_it_is(client):
    """"We call this step a checkpoint." (the first lesson) says what a checkpoint is only
    with the sentence before it; "A **checkpoint** is the moment …" (the second) says it
    itself, and is what the page quotes, the card shows and ``defined_at`` gives. The page
    still links the first lesson."""
    term = client.get("/api/terms/checkpoint").get_json()
    assert term["definition"].startswith("A checkpoint is the moment the engine has written")
    assert term["defined_at"]["lesson"] == "recovery"
    assert term["defined_at"]["url"] == BASE + "recovery#making-pages-durable"
    (card,) = client.get("/api/search?q=checkpoint").get_json()["terms"]
    assert card["definition"] == term["definition"]
    assert card["url"] == BASE + "recovery#making-pages-durable"
    p = _page(client, "/glossary/checkpoint")
    assert "A checkpoint is the moment the engine has written" in p.text
    assert "We call this step" not in p.text
    assert "Also defined in Pages and flushing ." in p.text
    assert BASE + "pages#writing-pages-back" in p.links()


def test_a_definition_that_points_back_is_shown_with_the_sentence_before_it(tmp_path):
    """With the clearer lesson gone, the pointing one is shown, after the sentence that says
    what "this step" is; its link still opens its section."""
    index_dir = _course(tmp_path, {"01-pages.md": LESSONS["01-pages.md"]})
    with serving(index_dir) as client:
        term = client.get("/api/terms/checkpoint").get_json()
        joined = ("Every few minutes the engine writes all of them to the data files at once. "
                  "We call this step a checkpoint.")
        assert term["definition"] == joined
        assert term["defined_at"]["sentence"] == joined
        assert term["defined_at"]["url"] == BASE + "pages#writing-pages-back"
        (card,) = client.get("/api/search?q=checkpoint").get_json()["terms"]
        assert card["definition"] == joined
        p = _page(client, "/glossary/checkpoint")
        assert joined in p.text and "Also defined in" not in p.text


def test_a_sentence_that_opens_its_section_is_joined_to_nothing(client):
    """"That job is called compaction." opens its section: the sentence before it is the
    previous section's, about something else, so it is shown alone."""
    term = client.get("/api/terms/compaction").get_json()
    assert term["definition"] == "That job is called compaction."


REPLICAS = {
    "01-copies.md": """\
# Copies

## Free space

Each table keeps a list of its pages with room left. This is the free space map. We refer to
this share as the fill factor.

## Replicas

Readers of a replica see rows a little behind the primary. That gap is called replica lag.
Sending the log to every replica as it is written is called log shipping. We call this
technique streaming replication.
""",
    "02-failover.md": """\
# Failover

## Keeping up

Each change travels to the replicas as soon as it commits. We call this technique streaming
replication. The word for this is "replica lag": every reader of a replica sees the rows
as they were a moment ago.
""",
}


def test_a_pointing_definition_is_not_shown_after_a_sentence_that_names_another_term(
        tmp_path):
    """"This is the free space map. We refer to this share as the fill factor." would say the
    two are one thing: the fill factor's card and page show its sentence alone. Streaming
    replication, named right after log shipping in the first lesson, is shown by the second,
    whose sentence before says what "this technique" is."""
    with serving(_course(tmp_path, REPLICAS)) as client:
        fill = client.get("/api/terms/fill factor").get_json()
        assert fill["definition"] == "We refer to this share as the fill factor."
        assert fill["defined_at"]["sentence"] == fill["definition"]
        (card,) = client.get("/api/search?q=fill factor").get_json()["terms"]
        assert card["definition"] == fill["definition"]
        p = _page(client, "/glossary/fill factor")
        assert "free space map" not in p.text
        streaming = client.get("/api/terms/streaming replication").get_json()
        assert streaming["definition"] == (
            "Each change travels to the replicas as soon as it commits. We call this "
            "technique streaming replication.")
        assert streaming["defined_at"]["lesson"] == "failover"
        assert "Also defined in Copies ." in _page(client, "/glossary/streaming replication").text


def test_a_pointing_definition_that_explains_itself_after_a_colon_is_the_clearest(tmp_path):
    """'The word for this is "replica lag": every reader …' says what replica lag is after
    the colon: it is shown alone, not after the naming of streaming replication before it,
    and over the first lesson's "That gap is called replica lag.", which needs its sentence
    before."""
    with serving(_course(tmp_path, REPLICAS)) as client:
        lag = client.get("/api/terms/replica lag").get_json()
        assert lag["definition"] == (
            "The word for this is \"replica lag\": every reader of a replica sees the rows as "
            "they were a moment ago.")
        assert lag["defined_at"]["lesson"] == "failover"
        (card,) = client.get("/api/search?q=replica lag").get_json()["terms"]
        assert card["definition"] == lag["definition"]


def test_conflicting_definitions_start_with_the_one_the_term_page_shows(index_dir):
    """The coverage report compares each lesson's definition with the one readers are shown,
    and lists that one first, each with the sentence it points back to."""
    report = coverage_report(current_version(index_dir), index_dir)
    (conflict,) = [c for c in report.conflicting if c.term == "checkpoint"]
    assert [d.source for d in conflict.definitions] == ["recovery", "pages"]
    assert conflict.definitions[1].text.startswith("Every few minutes the engine writes")
    (row,) = [t for t in report.terms if t.term == "checkpoint"]
    assert row.defined_at.lesson == "pages"  # still the first lesson that defines it


# --- A name spelt out beside a glossary acronym ------------------------------------------------


def test_a_long_name_written_beside_a_glossary_acronym_is_its_alias(client):
    """The glossary has CDC; "change data capture (CDC)" makes change data capture its
    alias: a search for it shows CDC's card, not data file's through its alias "data", a
    word inside it, and the long name's mentions are CDC's."""
    term = client.get("/api/terms/CDC").get_json()
    assert term["aliases"] == ["change data capture"]
    assert term["mention_count"] == 2
    assert client.get("/api/terms/change data capture").get_json()["term"] == "CDC"
    cards = client.get("/api/search?q=change data capture").get_json()["terms"]
    assert [c["term"] for c in cards] == ["CDC"]
    assert "Also called change data capture" in _page(client, "/glossary/CDC").text


def test_an_acronym_written_beside_a_glossary_long_name_is_its_alias(client):
    """The glossary has write-ahead log; "(WAL)" after it in a lesson is its alias."""
    term = client.get("/api/terms/write-ahead log").get_json()
    assert term["aliases"] == ["WAL"]
    assert term["mention_count"] == 3  # "write-ahead log", "(WAL)" and "the WAL"
    cards = client.get("/api/search?q=WAL").get_json()["terms"]
    assert [c["term"] for c in cards] == ["write-ahead log"]


@pytest.mark.parametrize("query, cards", [
    ("max_new_tokens", []), ("past_key_values", []), ("what is max_new_tokens?", []),
    ("top_p", ["nucleus sampling"]), ("kv_cache", ["KV cache"]),
    ("max_new_tokens token", ["token"]),
])
def test_a_name_in_snake_case_shows_a_card_only_for_a_term_it_names_whole(sample_index, query,
                                                                           cards):
    """``max_new_tokens`` is a setting of the code the sample course shows: no card for the
    term token above its results, nor one for key and value over ``past_key_values``; a
    name the glossary gives in snake case still shows its term."""
    with serving(sample_index) as client:
        body = client.get("/api/search", query_string={"q": query}).get_json()
        assert [card["term"] for card in body["terms"]] == cards
        assert body["total"] > 0
