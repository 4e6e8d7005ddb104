"""A live version damaged by hand (a file cut short, overwritten or emptied) is refused with
the sentence that names the file and says to rebuild, on the CLI and the server, and the next
build, incremental or full, replaces it: a build never needs the live version to be whole.

Each test copies the session's tiny index, damages the copy's live version as an operator
might (``truncate``, a stray ``>``, a copy stopped half way), then runs the commands in a
child process, as an operator does, and the server through Flask's test client.
"""

from __future__ import annotations

import html
import json
import os
import pickle
import shutil
import struct
import subprocess
import sys
import time
import zlib
from array import array
from collections.abc import Callable
from pathlib import Path

import pytest
from web_fixtures import serving
from whoosh import index as whoosh_index

from lessonsearch.errors import IndexDamaged
from lessonsearch.index_store import current_version
from lessonsearch.searcher import Searcher

GARBAGE = bytes(range(256)) * 80
"""Bytes that are no file format at all: what a stray redirection leaves."""


def cut_short(path: Path, size: int = 8000) -> None:
    os.truncate(path, size)


def overwritten(path: Path) -> None:
    path.write_bytes(GARBAGE)


def emptied(path: Path) -> None:
    path.write_bytes(b"")


def zeroed_after(path: Path, size: int = 8000) -> None:
    """Cut short in a copy that set the file's size first (a preallocating copy stopped
    half way): the size is right, the rest zeros."""
    whole = path.stat().st_size
    os.truncate(path, size)
    os.truncate(path, whole)


def scrambled(path: Path) -> None:
    """Written over with other bytes of the same size."""
    path.write_bytes((GARBAGE * (path.stat().st_size // len(GARBAGE) + 1))[:path.stat().st_size])


def damaged_copy(tiny_index: Path, tmp_path: Path, part: str,
                 damage: Callable[[Path], None]) -> tuple[Path, str]:
    """A copy of the tiny index with ``damage`` done to ``part`` of its live version, and
    how the refusal names the part's damage: by its size when that changed."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    path = current_version(out) / part
    whole = path.stat().st_size
    damage(path)
    now = path.stat().st_size
    if now == whole:
        return out, f"cannot be read: its {PARTS[part]} is damaged"
    return out, (f"cannot be read: its file {part} is {now:,} bytes, the build wrote "
                 f"{whole:,}: the copy was cut short")


PARTS = {"glossary.sqlite": "glossary file (glossary.sqlite)",
         "spelling.json": "spelling file (spelling.json)"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lessonsearch.cli", *args],
                          capture_output=True, text=True)


EVERY_READER = (["search", "cache"], ["term", "temperature"], ["terms"], ["coverage"])
SEARCHERS = EVERY_READER[:3]
"""The commands that open the search index (the coverage report reads only the glossary
file and the manifest)."""


def commands_refuse(index_dir: Path, saying: str, commands=EVERY_READER) -> None:
    """Every command that reads the index exits 1 with the sentence, which says to rebuild;
    with ``--json`` it is the ``error`` of the body on stdout too. No traceback."""
    for command in commands:
        done = run(*command, "--index", str(index_dir))
        assert done.returncode == 1, command
        assert "Traceback" not in done.stderr, command
        assert saying in done.stderr and "lessonsearch index --full" in done.stderr, command
    done = run("search", "cache", "--json", "--index", str(index_dir))
    assert done.returncode == 1
    assert saying in json.loads(done.stdout)["error"]


def server_refuses(index_dir: Path, saying: str) -> None:
    """With no other version to serve, every route that reads the index answers 503: the
    API with the sentence (the health check too: it is how an operator learns which file),
    no path; a page with a sentence for readers (``pages_say_not_now``)."""
    with serving(index_dir) as client:
        for url in ("/healthz", "/api/search?q=cache", "/api/terms"):
            got = client.get(url)
            assert got.status_code == 503, url
            said = got.get_json()["error"]
            assert f"The index {saying}. Rebuild it on the server: lessonsearch index --full" \
                in said, url
            assert str(index_dir) not in said, url
        pages_say_not_now(client, "at the moment")


def pages_say_not_now(client, when: str) -> None:
    """The pages answer 503 with a sentence for readers: what to run is the operator's."""
    for url in ("/search?q=cache", "/glossary"):
        got = client.get(url)
        assert got.status_code == 503, url
        said = html.unescape(got.get_data(as_text=True))
        assert f"Search is not available {when}. Please come back in a little while." in said
        assert "lessonsearch index" not in said, url


def index_replaces_it(index_dir: Path, course: Path, *extra: str) -> subprocess.CompletedProcess:
    """``lessonsearch index`` (incremental unless ``extra`` says ``--full``) publishes a new
    version over the damaged one, which then answers."""
    damaged = current_version(index_dir).name
    done = run("index", "--lessons", str(course / "lessons"), "--glossary",
               str(course / "glossary"), "--out", str(index_dir), *extra)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "Indexed 4 lessons" in done.stdout
    assert current_version(index_dir).name != damaged
    searcher = Searcher.open(index_dir)
    try:
        assert searcher.search("cache").total > 0
        assert searcher.glossary.look_up("temperature").term == "temperature"
    finally:
        searcher.close()
    return done


def a_newer_version(tmp_path: Path, tiny_index: Path, tiny_course: Path) -> tuple[Path, str, Path]:
    """A copy of the tiny index with a second version built over it: the index folder, the
    first version's name, and the second, live version's folder."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    first = current_version(out).name
    index_replaces_it(out, tiny_course, "--full")
    return out, first, current_version(out)


# --- The glossary file ------------------------------------------------------------------------

GLOSSARY_DAMAGE = [cut_short, overwritten, emptied, zeroed_after, scrambled]


@pytest.mark.parametrize("damage", GLOSSARY_DAMAGE)
def test_a_damaged_glossary_file_is_refused_with_what_to_do(tmp_path: Path, tiny_index: Path,
                                                              damage):
    """It gave SQLite's traceback ("database disk image is malformed", "no such table") on
    the CLI, and a 500 on every route of a server with no other version, /healthz too."""
    out, saying = damaged_copy(tiny_index, tmp_path, "glossary.sqlite", damage)
    commands_refuse(out, saying)
    server_refuses(out, saying)


@pytest.mark.parametrize("full", [False, True], ids=["incremental", "full"])
@pytest.mark.parametrize("damage", GLOSSARY_DAMAGE)
def test_any_build_replaces_a_version_whose_glossary_file_is_damaged(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, damage, full: bool):
    """Every build died reading the live version's glossary file (the build cache's patch of
    it, the broken anchors it listed), ``--full`` too, so nothing could replace it. What a
    build takes from the live version it now does without, saying so in one line."""
    out, saying = damaged_copy(tiny_index, tmp_path, "glossary.sqlite", damage)
    if saying.endswith("is damaged"):  # its size kept: its time shows it first
        saying = "has a file modified since its build wrote it (glossary.sqlite)"
    done = index_replaces_it(out, tiny_course, *(["--full"] if full else []))
    notes = [line for line in done.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1
    assert saying in notes[0]
    assert ("nothing of it is reused" in notes[0]) is not full  # a full build reuses nothing


@pytest.mark.parametrize("damage", ["stored fields", "manifest"])
def test_a_full_build_says_only_what_it_loses_of_a_damaged_version(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, damage: str):
    """It said "…; nothing of it is reused.", which a full build never does: what it takes
    of the live version is only the broken anchors it listed."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    live = current_version(out)
    if damage == "manifest":
        (live / "manifest.json").write_text("[]")
        saying = "cannot be read: its manifest is damaged"
    else:
        saying = (f"has a file modified since its build wrote it "
                  f"(whoosh/{stored_fields_scrambled(live).name})")
    done = index_replaces_it(out, tiny_course, "--full")
    notes = [line for line in done.stderr.splitlines() if line.startswith("note:")]
    assert notes == [f"note: The live version {live.name} {saying}; the broken anchors it "
                     "listed are not carried over."]


def test_healthz_names_the_damaged_file_while_the_version_before_serves(
        tmp_path: Path, tiny_index: Path, tiny_course: Path):
    """The reason was the exception's class ("It could not be opened (DatabaseError)")."""
    out, first, newer = a_newer_version(tmp_path, tiny_index, tiny_course)
    scrambled(newer / "glossary.sqlite")
    with serving(out) as client:
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("warn", first)
        assert body["not_loaded"] == {
            "version": newer.name,
            "reason": "It cannot be read: its glossary file (glossary.sqlite) is damaged."}
        assert client.get("/api/search?q=cache").get_json()["total"] > 0


def test_a_build_over_a_manifest_that_is_no_object_publishes(tmp_path: Path,
                                                             tiny_index: Path,
                                                             tiny_course: Path):
    """A manifest of ``[]`` was refused by ``search`` with the sentence to rebuild, but the
    rebuild died (AttributeError, reading the anchors the live version published)."""
    out, _ = damaged_copy(tiny_index, tmp_path, "manifest.json",
                          lambda path: path.write_text("[]"))
    done = index_replaces_it(out, tiny_course)
    assert "note: The live version" in done.stderr
    assert "cannot be read: its manifest is damaged; nothing of it is reused" in done.stderr


# --- A copy cut short: every file the build wrote, with its size -----------------------------

def halved(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def stored_fields_halved(version: Path) -> str:
    """Each segment's stored fields cut to half, as the tester's copy was; what the refusal
    says of the (one) file."""
    [column] = (version / "whoosh").glob("*_stored.col")
    whole = column.stat().st_size
    halved(column)
    return (f"cannot be read: its file whoosh/{column.name} is {whole // 2:,} bytes, the build "
            f"wrote {whole:,}: the copy was cut short")


def test_a_version_with_a_file_cut_short_is_refused_naming_the_file(tmp_path: Path,
                                                                      tiny_index: Path):
    """Its manifest was whole, so it opened and /healthz said "ok"; every search that found
    something then answered 500 (``struct.error``), and the CLI gave a traceback."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    saying = stored_fields_halved(current_version(out))
    commands_refuse(out, saying)
    server_refuses(out, saying)


def test_a_version_missing_a_segment_file_is_refused_naming_it(tmp_path: Path,
                                                               tiny_index: Path):
    """The CLI said the system's "No such file or directory" with the server's full path,
    and no advice."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    [postings] = (current_version(out) / "whoosh").glob("*.pst")
    postings.unlink()
    commands_refuse(out, f"cannot be read: its file whoosh/{postings.name} is missing")


def stored_fields_cut_short(version: Path) -> None:
    stored_fields_halved(version)


def terms_overwritten(version: Path) -> None:
    for path in (version / "whoosh").glob("*.trm"):
        path.write_bytes(GARBAGE[:5000])


def postings_removed(version: Path) -> None:
    for path in (version / "whoosh").glob("*.pst"):
        path.unlink()


@pytest.mark.parametrize("damage", [stored_fields_cut_short, terms_overwritten,
                                    postings_removed])
def test_an_incremental_build_replaces_a_version_cut_short(tmp_path: Path, tiny_index: Path,
                                                           tiny_course: Path, damage):
    """It linked the damaged segments into its own version, found that version the same as
    the live one, and said "nothing changed": the broken version stayed live."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    damage(current_version(out))
    done = index_replaces_it(out, tiny_course)
    assert "nothing changed" not in done.stdout
    assert "4 of 4 lessons rewritten" in done.stdout  # no segment of the damaged one reused
    assert "; nothing of it is reused." in done.stderr


def test_healthz_names_the_file_cut_short_while_the_version_before_serves(
        tmp_path: Path, tiny_index: Path, tiny_course: Path):
    out, first, newer = a_newer_version(tmp_path, tiny_index, tiny_course)
    saying = stored_fields_halved(newer)
    with serving(out) as client:
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("warn", first)
        assert body["not_loaded"] == {"version": newer.name, "reason": f"It {saying}."}
        assert client.get("/api/search?q=cache").get_json()["total"] > 0


def test_a_worker_falls_back_past_a_version_cut_short(tmp_path: Path, tiny_index: Path,
                                                      tiny_course: Path):
    """When ``current`` cannot be opened, a worker serves the newest version that opens: one
    with a file cut short opened, so it was picked, and answered searches with a 500."""
    out, good, newer = a_newer_version(tmp_path, tiny_index, tiny_course)
    stored_fields_halved(newer)
    index_replaces_it(out, tiny_course, "--full")
    emptied(current_version(out) / "manifest.json")
    with serving(out) as client:
        assert client.get("/healthz").get_json()["version"] == good
        got = client.get("/api/search?q=cache")
        assert got.status_code == 200 and got.get_json()["total"] > 0


def test_the_index_folder_deleted_under_a_running_server_is_a_503(tmp_path: Path,
                                                                  tiny_index: Path):
    """The version in use went on answering from the files it still held open, and every
    other request (a term's mentions, a new thread's search) was a 500."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    with serving(out) as client:
        assert client.get("/api/search?q=cache").get_json()["total"] > 0
        shutil.rmtree(out)
        for url in ("/healthz", "/api/search?q=cache", "/api/terms/temperature",
                    "/api/suggest?q=tem"):
            got = client.get(url)
            assert got.status_code == 503, url
            assert "Index not built: run `lessonsearch index` on the server" \
                in got.get_json()["error"], url
        pages_say_not_now(client, "yet")


# --- Other files damaged by hand ---------------------------------------------------------------

def rewrite_manifest(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        manifest = json.loads(path.read_text())
        change(manifest)
        path.write_text(json.dumps(manifest))
    return damage


@pytest.mark.parametrize("change", [
    lambda m: m.update(lessons=5),
    lambda m: m.update(modules={"basics": "Basics"}),
    lambda m: m["lessons"][0].pop("slug"),
    lambda m: m.update(counts=[]),
], ids=["lessons a number", "modules an object", "a lesson without a slug", "counts a list"])
def test_a_manifest_edited_out_of_shape_is_refused(tmp_path: Path, tiny_index: Path,
                                                   tiny_course: Path, change):
    """Still JSON, so it was read, then every command died on it (``TypeError``) and every
    page was a 500."""
    out, _ = damaged_copy(tiny_index, tmp_path, "manifest.json", rewrite_manifest(change))
    saying = "cannot be read: its manifest is damaged"
    commands_refuse(out, saying)
    server_refuses(out, saying)
    done = index_replaces_it(out, tiny_course)
    assert f"{saying}; nothing of it is reused." in done.stderr


def whoosh_file(version: Path, pattern: str) -> Path:
    [path] = (version / "whoosh").glob(pattern)
    return path


def test_a_table_of_contents_written_over_is_refused_naming_it(tmp_path: Path,
                                                               tiny_index: Path,
                                                               tiny_course: Path):
    """Whoosh's ``IndexError`` ("Index was created on different architecture") on every
    command, a 500 on every page, and an incremental build died on it too."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    toc = whoosh_file(current_version(out), "*.toc")
    scrambled(toc)
    saying = f"cannot be read: its search index (whoosh/{toc.name}) is damaged"
    commands_refuse(out, saying, SEARCHERS)
    server_refuses(out, saying)
    done = index_replaces_it(out, tiny_course)
    assert f"{saying}; nothing of it is reused." in done.stderr


def test_a_segment_written_over_is_refused_and_not_reused(tmp_path: Path, tiny_index: Path,
                                                          tiny_course: Path):
    """Its terms file written over with as many bytes: Whoosh's ``FileFormatError`` on
    every command, and an incremental build linked the segment into its version, found it
    the same as the live one and said "nothing changed", keeping the broken version."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    terms = whoosh_file(current_version(out), "*.trm")
    scrambled(terms)
    saying = f"cannot be read: its search index (whoosh/{terms.stem}.*) is damaged"
    commands_refuse(out, saying, SEARCHERS)
    server_refuses(out, saying)
    done = index_replaces_it(out, tiny_course)
    assert "nothing changed" not in done.stdout
    assert "4 of 4 lessons rewritten" in done.stdout
    assert f"{saying}; nothing of it is reused." in done.stderr


def as_a_list(path: Path) -> None:
    """JSON of the file's own size, but a list where a build writes an object of counts."""
    size = path.stat().st_size
    path.write_text("[1, 2]".ljust(size))


@pytest.mark.parametrize("damage", [scrambled, as_a_list])
def test_a_damaged_spelling_file_is_refused_naming_it(tmp_path: Path, tiny_index: Path,
                                                      damage):
    """It gave a ``JSONDecodeError`` traceback to every command, and a 500 to every page."""
    out, saying = damaged_copy(tiny_index, tmp_path, "spelling.json", damage)
    assert saying == "cannot be read: its spelling file (spelling.json) is damaged"
    commands_refuse(out, saying, SEARCHERS)
    server_refuses(out, saying)


def test_healthz_names_the_damaged_part_while_the_version_before_serves(
        tmp_path: Path, tiny_index: Path, tiny_course: Path):
    """The reason was the exception's class: "It could not be opened (IndexError)"."""
    out, first, newer = a_newer_version(tmp_path, tiny_index, tiny_course)
    toc = whoosh_file(newer, "*.toc")
    scrambled(toc)
    with serving(out) as client:
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("warn", first)
        assert body["not_loaded"] == {
            "version": newer.name,
            "reason": f"It cannot be read: its search index (whoosh/{toc.name}) is damaged."}


# --- A file written over while served, after the check: found when a search reads it ----------

def stored_fields_scrambled(version: Path) -> Path:
    """The stored fields written over with as many bytes: the size and the segment's headers
    are whole, so the version opens."""
    path = whoosh_file(version, "*_stored.col")
    scrambled(path)
    return path


def postings_scrambled(version: Path) -> Path:
    """3,000 bytes inside the postings written over, after the file's header."""
    path = whoosh_file(version, "*.pst")
    data = bytearray(path.read_bytes())
    data[16:3016] = GARBAGE[:3000]
    path.write_bytes(bytes(data))
    return path


def stored_fields_rewritten(version: Path, change: Callable[[dict], object]) -> Path:
    """The stored fields written again as Whoosh writes them (each document's pickled and
    deflated, then the table of their lengths and its type code), every document's
    ``change``d, and padded with zeros to the file's size: every byte reads, and what it
    reads is not what a build writes, as bytes written over may unpickle."""
    path = whoosh_file(version, "*_stored.col")
    opened = whoosh_index.open_dir(str(version / "whoosh"))
    with opened.searcher() as searcher:
        documents = [searcher.stored_fields(n) for n in range(searcher.doc_count_all())]
    opened.close()
    values = [zlib.compress(pickle.dumps(change(d), -1)) for d in documents]
    lengths = array("I", map(len, values)).tobytes() + b"I"
    padding = path.stat().st_size - sum(map(len, values)) - len(lengths)
    assert padding >= 0
    path.write_bytes(b"".join(values) + bytes(padding) + lengths)
    return path


def stored_fields_without_keys(version: Path) -> Path:
    """Each document's stored fields a dict without the lesson's slug: a ``KeyError``."""
    return stored_fields_rewritten(
        version, lambda stored: {k: v for k, v in stored.items() if k != "lesson"})


def stored_fields_of_other_types(version: Path) -> Path:
    """Each document's stored fields with values of other types: its place a string, its
    headings a string (read as one heading a letter)."""
    return stored_fields_rewritten(
        version, lambda stored: {**stored, "position": "1", "heading_path": "Basics"})


def stored_fields_read_as_none(version: Path) -> Path:
    """The table of lengths zeroed (it ends the file, before its type code): every
    document's stored fields read as none at all (``{}``)."""
    path = whoosh_file(version, "*_stored.col")
    data = bytearray(path.read_bytes())
    opened = whoosh_index.open_dir(str(version / "whoosh"))
    count = opened.doc_count_all()
    opened.close()
    assert chr(data[-1]) in "BHIL"  # the lengths' type code; no table of offsets
    table = struct.calcsize(chr(data[-1])) * count
    data[-1 - table:-1] = bytes(table)
    path.write_bytes(bytes(data))
    return path


def stored_fields_written_over_inside(version: Path) -> Path:
    """The documents' deflated fields written over, every other byte, and the table of
    their lengths that ends the file kept: each document's bytes are found, and do not
    inflate (``zlib.error``)."""
    path = whoosh_file(version, "*_stored.col")
    data = bytearray(path.read_bytes())
    opened = whoosh_index.open_dir(str(version / "whoosh"))
    count = opened.doc_count_all()
    opened.close()
    end = len(data) - 1 - struct.calcsize(chr(data[-1])) * count
    data[:end:2] = GARBAGE[:len(range(0, end, 2))]
    path.write_bytes(bytes(data))
    return path


def stored_fields_type_code_written_over(version: Path) -> Path:
    """The last byte, the type code of the table of lengths, written over with one that is
    no type (``array``'s ``ValueError``)."""
    path = whoosh_file(version, "*_stored.col")
    data = bytearray(path.read_bytes())
    data[-1:] = b"?"
    path.write_bytes(bytes(data))
    return path


READ_DAMAGE = [stored_fields_scrambled, postings_scrambled, stored_fields_without_keys]


def read_damage_saying(version: Path, path: Path) -> str:
    return (f"cannot be read: its file whoosh/{path.name} of version {version.name} is "
            "damaged: a search could not read it")


@pytest.mark.parametrize("damage", READ_DAMAGE)
def test_a_file_a_search_cannot_read_is_refused_on_the_command_line(tmp_path: Path,
                                                                    tiny_index: Path,
                                                                    damage):
    """``search`` gave a traceback (``struct.error: bad char in struct format``,
    ``Exception: Block tag error``)."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    version = current_version(out)
    saying = read_damage_saying(version, damage(version))
    commands_refuse(out, saying, [["search", "cache"]])


@pytest.mark.parametrize("damage", READ_DAMAGE)
def test_a_file_a_search_cannot_read_is_a_503_then_the_health_check_says_so(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, damage, caplog):
    """The search answered 500 with a traceback in the log, and /healthz went on saying 200
    "ok". With no other version, every route is then a 503 with the sentence, until a build
    publishes a version that answers."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    version = current_version(out)
    with serving(out) as client:
        assert client.get("/healthz").status_code == 200  # checked: only a search finds it
        saying = read_damage_saying(version, damage(version))
        public = f"The index {saying}. Rebuild it on the server: lessonsearch index --full"
        got = client.get("/api/search?q=cache")
        assert got.status_code == 503
        assert got.get_json() == {"error": public}
        said = [r for r in caplog.records if saying in r.getMessage()]
        assert len(said) == 1 and said[0].exc_info is None
        assert not [r for r in caplog.records if r.exc_info]
        got = client.get("/healthz")
        assert got.status_code == 503
        assert got.get_json()["error"] == public
        index_replaces_it(out, tiny_course, "--full")
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("ok", current_version(out).name)
        assert client.get("/api/search?q=cache").get_json()["total"] > 0


def test_a_file_a_search_cannot_read_leaves_the_version_before_serving(
        tmp_path: Path, tiny_index: Path, tiny_course: Path):
    """As for a version that does not open: the health check says "warn" and why, and the
    version before answers."""
    out, first, newer = a_newer_version(tmp_path, tiny_index, tiny_course)
    with serving(out) as client:
        assert client.get("/healthz").get_json()["status"] == "ok"  # checked, as above
        saying = read_damage_saying(newer, stored_fields_scrambled(newer))
        assert client.get("/api/search?q=cache").status_code == 503
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("warn", first)
        assert body["not_loaded"] == {"version": newer.name, "reason": f"It {saying}."}
        got = client.get("/api/search?q=cache")
        assert got.status_code == 200 and got.get_json()["total"] > 0


@pytest.mark.parametrize("damage", [stored_fields_without_keys, stored_fields_of_other_types,
                                    stored_fields_read_as_none, stored_fields_written_over_inside,
                                    stored_fields_type_code_written_over])
def test_stored_fields_written_over_are_refused_naming_the_file(tmp_path: Path,
                                                                tiny_index: Path, damage):
    """Stored fields that read, but not as the dict a build writes: ``search`` gave a
    ``KeyError: 'lesson'`` traceback, and the server a 500, as for a bug of the code. Bytes
    inside a document's deflated fields were refused naming only the folder (``whoosh/``),
    and a type code that is none gave a ``ValueError`` traceback. A suggestion's name is read
    from the stored fields too ("Did you mean", ``temprature``)."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    version = current_version(out)
    saying = read_damage_saying(version, damage(version))
    commands_refuse(out, saying, [["search", "cache"], ["search", "temprature"]])
    with serving(out) as client:
        got = client.get("/search?q=temperature")
        assert got.status_code == 503
        assert "Search is not available at the moment." in html.unescape(got.get_data(True))
        error = client.get("/healthz").get_json()["error"]
        # The search found it, or the server's check of the checksums, whichever came first.
        assert saying in error or saying.replace(
            "a search could not read it", "its bytes are not the ones the build wrote") in error


def test_a_worker_falls_back_past_every_version_a_search_finds_damaged(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, caplog):
    """The newest version's stored fields written over, and those of the version before
    read as dicts without keys: the worker fell back to that one, and every search that
    read it answered 500 (45 of 200, for the tester). Each is found by one search, answered
    503 and logged once, and the worker falls back to the next. (Each is damaged once it
    serves, before a search reads it: damage done before it opens is found by the check of
    its files.)"""
    out, first, middle = a_newer_version(tmp_path, tiny_index, tiny_course)
    index_replaces_it(out, tiny_course, "--full")
    newest = current_version(out)
    with serving(out) as client:
        assert client.get("/healthz").get_json()["version"] == newest.name
        stored_fields_scrambled(newest)
        answers = [client.get("/api/search?q=cache").status_code]
        assert client.get("/healthz").get_json()["version"] == middle.name
        stored_fields_without_keys(middle)
        answers += [client.get("/api/search?q=cache").status_code for _ in range(3)]
        assert answers == [503, 503, 200, 200]
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("warn", first)
        assert body["not_loaded"]["version"] == newest.name
    for version in (newest, middle):
        said = [r for r in caplog.records if f"Index version {version.name} is damaged"
                in r.getMessage()]
        assert len(said) == 1
    assert not [r for r in caplog.records if r.exc_info]


def test_a_version_the_worker_cannot_fall_back_to_is_logged_once(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, caplog):
    """Both versions found damaged by a search: every request after tried the older one
    again and logged "Cannot open index version … either", a line a request."""
    out, first, newer = a_newer_version(tmp_path, tiny_index, tiny_course)
    stored_fields_without_keys(out / first)
    stored_fields_scrambled(newer)
    with serving(out) as client:
        answers = {client.get("/api/search?q=cache").status_code for _ in range(8)}
        assert answers == {503}
    either = [r.getMessage() for r in caplog.records if "either" in r.getMessage()]
    said = (f"Cannot open index version {first} either: It cannot be read: its file "
            f"whoosh/{whoosh_file(out / first, '*_stored.col').name} of version {first} is "
            "damaged: ")
    # Found by the search or by the check of its checksums, whichever came first.
    assert len(either) == 1 and either[0] in (f"{said}a search could not read it.",
                                              f"{said}its bytes are not the ones the build wrote.")


@pytest.mark.parametrize("damage", READ_DAMAGE)
def test_a_file_written_over_that_opens_is_not_reused_by_the_next_build(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, damage):
    """The incremental build linked the damaged file into its version, found it the same
    as the live one's and said "nothing changed": the damage stayed until ``--full``. The
    file's modification time gives it away."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    version = current_version(out)
    path = damage(version)
    done = index_replaces_it(out, tiny_course)
    assert "nothing changed" not in done.stdout
    assert "4 of 4 lessons rewritten" in done.stdout
    name = f"whoosh/{path.name}"
    assert (f"The live version {version.name} has a file modified since its build wrote it "
            f"({name}); nothing of it is reused.") in done.stderr
    assert not (current_version(out) / "whoosh" / path.name).exists()


def test_a_copy_that_keeps_the_files_times_is_still_reused(tmp_path: Path, tiny_index: Path,
                                                           tiny_course: Path):
    """``cp -a`` and ``rsync -a`` keep each file's time, as the copy above does: an
    unchanged course builds nothing new over such a copy."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    live = current_version(out).name
    done = run("index", "--lessons", str(tiny_course / "lessons"), "--glossary",
               str(tiny_course / "glossary"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "nothing changed" in done.stdout
    assert "modified since" not in done.stderr
    assert current_version(out).name == live


def test_an_error_of_the_code_while_reading_stays_an_error(tmp_path: Path):
    """Only the errors of reading other bytes are damage: a bug is not told as a file to
    rebuild."""
    from lessonsearch.errors import IndexDamaged
    from lessonsearch.whoosh_open import reading_index

    with pytest.raises(IndexDamaged), reading_index(tmp_path / "v-1"):
        raise Exception("Block tag error b'xx'")
    for bug in (TypeError("unsupported operand"), KeyError("lesson"), AttributeError("x")):
        with pytest.raises(type(bug)), reading_index(tmp_path / "v-1"):
            raise bug


# --- The build cache: a damaged one costs the next build its shortcuts, nothing more ------------

def ninety_percent_written_over(path: Path) -> None:
    """64 bytes written over, nine tenths into the file."""
    data = bytearray(path.read_bytes())
    at = len(data) * 9 // 10
    data[at:at + 64] = GARBAGE[128:192]
    path.write_bytes(bytes(data))


def every_fifth_byte_of_the_second_half(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for at in range(len(data) // 2, len(data), 5):
        data[at] = 0xFF
    path.write_bytes(bytes(data))


def one_bit_flipped(path: Path) -> None:
    """Damage light enough for the cache to load: the build said "nothing changed" and kept
    it."""
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))


def an_entry_written_over(path: Path) -> None:
    """Bytes written over in the middle of an entry the build unpickles only when it needs
    it (the previous build's chunks), after others were used."""
    data = bytearray(path.read_bytes())
    entry = pickle.loads(data)["entries"]["chunks"]["all"]
    at = data.find(entry) + len(entry) // 2
    data[at:at + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))


def time_kept(damage: Callable[[Path], None]) -> Callable[[Path], None]:
    """``damage``, with the file's modification time set back (``touch -r``, a copy that
    keeps the times of damaged files): the cache is read, and its damage found there."""
    def done(path: Path) -> None:
        before = path.stat()
        damage(path)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    return done


CACHE_DAMAGE = {
    ninety_percent_written_over: "was modified since its build wrote it",
    every_fifth_byte_of_the_second_half: "was modified since its build wrote it",
    one_bit_flipped: "was modified since its build wrote it",
    emptied: "was modified since its build wrote it",
    time_kept(every_fifth_byte_of_the_second_half): "cannot be read",
    time_kept(an_entry_written_over): "is damaged",
}


@pytest.mark.parametrize("damage", CACHE_DAMAGE, ids=lambda d: d.__qualname__)
def test_a_damaged_build_cache_is_done_without(tmp_path: Path, tiny_index: Path,
                                               tiny_course: Path, damage):
    """Bytes written over in the build cache gave the next ``lessonsearch index`` a
    ``UnicodeDecodeError`` or ``MemoryError`` traceback, or, lighter, "nothing changed"
    with the damaged cache kept. The build does as without a cache, says so in one note,
    and publishes a version that answers, with a cache the build after it reuses."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    live = current_version(out)
    damage(live / "build-cache.pickle")
    done = index_replaces_it(out, tiny_course)
    assert "4 of 4 lessons rewritten" in done.stdout
    notes = [line for line in done.stderr.splitlines() if line.startswith("note:")]
    assert notes == [f"note: The build cache of the live version {live.name} "
                     f"(build-cache.pickle) {CACHE_DAMAGE[damage]}; this build does without it."]
    again = run("index", "--lessons", str(tiny_course / "lessons"), "--glossary",
                str(tiny_course / "glossary"), "--out", str(out))
    assert again.returncode == 0 and "note:" not in again.stderr
    assert "nothing changed" in again.stdout


# --- A file written over that opens: found by its checksum -------------------------------------

def terms_scrambled(version: Path) -> Path:
    """Every 97th byte of the terms file changed, but in its header and its last 2 KB (its
    tables, read at opening): the size and the headers are whole, the version opens, and
    searches found nothing ("No results", logged as such)."""
    path = whoosh_file(version, "*.trm")
    data = bytearray(path.read_bytes())
    for at in range(16, len(data) - 2048, 97):
        data[at] ^= 0x5A
    path.write_bytes(bytes(data))
    return path


def checksum_saying(version: Path, path: Path) -> str:
    return (f"cannot be read: its file whoosh/{path.name} of version {version.name} is "
            "damaged: its bytes are not the ones the build wrote")


def health_until_swapped(client, done: Callable[[dict], bool]) -> dict:
    """/healthz's body, asked again until ``done`` holds of it: while a version serves, the
    server checks the files of the one ``current`` names in the background, and every
    search meanwhile is answered by the one served (``answered_by_the_one_before``)."""
    deadline = time.monotonic() + 60
    while True:
        body = client.get("/healthz").get_json()
        if done(body) or time.monotonic() > deadline:
            return body
        answered_by_the_one_before(client)
        time.sleep(0.02)


def answered_by_the_one_before(client) -> None:
    """A search answered by the tiny course's first version, not from a terms file written
    over (``terms_scrambled``), which finds nothing."""
    got = client.get("/api/search?q=cache")
    assert got.status_code == 200 and got.get_json()["total"] > 0


def test_check_names_a_file_written_over_with_as_many_bytes(tmp_path: Path, tiny_index: Path):
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    version = current_version(out)
    done = run("check", "--index", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Checked ") and version.name in done.stdout
    saying = checksum_saying(version, terms_scrambled(version))
    done = run("check", "--index", str(out))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert (f"lessonsearch: The index at {out} {saying}. Where it is built, rebuild it: "
            f"lessonsearch index --full --out {out}; on a replica, which has no lessons to "
            "build from, copy the version again under a new name and swap current.\n"
            ) == done.stderr


def test_check_names_a_file_cut_short(tmp_path: Path, tiny_index: Path):
    """``check`` is run after copying an index to a replica, which has no lessons to
    rebuild from: it said only to rebuild. It says what the server's log says there too."""
    out, saying = damaged_copy(tiny_index, tmp_path, "glossary.sqlite", cut_short)
    done = run("check", "--index", str(out))
    assert done.returncode == 1
    assert saying in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.endswith("on a replica, which has no lessons to build from, copy the "
                                "version again under a new name and swap current.\n")


def test_check_of_another_releases_index_says_to_copy_one_this_release_built(
        tmp_path: Path, tiny_index: Path):
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    manifest = current_version(out) / "manifest.json"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        '"format": ', '"format": 1000', 1), encoding="utf-8")
    done = run("check", "--index", str(out))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == (
        f"lessonsearch: The index at {out} was built by another version of lessonsearch. "
        f"Where it is built, rebuild it: lessonsearch index --full --out {out}; on a "
        "replica, which has no lessons to build from, copy a version built by this version "
        "of lessonsearch under a new name and swap current.\n")


def test_a_file_written_over_with_as_many_bytes_is_a_503_from_the_first_search(
        tmp_path: Path, tiny_index: Path, caplog):
    """With no other version, every route answers 503 with the sentence, not "No results":
    the first searches were answered from the damaged file while the files were checked in
    the background."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    version = current_version(out)
    saying = checksum_saying(version, terms_scrambled(version))
    searcher = Searcher.open(out)
    try:  # what a reader was told: nothing, or, where a changed byte breaks a block it
        try:  # reads (as the index's bytes fall), that a file is damaged, not which
            assert searcher.search("cache").total == 0
        except IndexDamaged as damaged:
            assert "its bytes are not the ones the build wrote" not in str(damaged)
    finally:
        searcher.close()
    public = f"The index {saying}. Rebuild it on the server: lessonsearch index --full"
    with serving(out) as client:
        for _ in range(3):
            got = client.get("/api/search?q=cache")
            assert got.status_code == 503 and got.get_json() == {"error": public}
        got = client.get("/healthz")
        assert got.status_code == 503
        assert got.get_json()["error"] == public
    said = [r for r in caplog.records if saying in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is None


def test_a_file_written_over_with_as_many_bytes_leaves_the_version_before_serving(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, caplog):
    """A worker starting with ``current`` naming it: the first search is the version
    before's."""
    out, first, newer = a_newer_version(tmp_path, tiny_index, tiny_course)
    saying = checksum_saying(newer, terms_scrambled(newer))
    with serving(out) as client:
        answered_by_the_one_before(client)
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("warn", first)
        assert body["not_loaded"] == {"version": newer.name, "reason": f"It {saying}."}
        answered_by_the_one_before(client)
    said = [r for r in caplog.records if saying in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is None


def test_a_file_written_over_with_as_many_bytes_is_never_swapped_in(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, caplog):
    """A server already serving a version when ``current`` moves to the damaged one: the
    request that noticed it was answered from it, and every request until the check in the
    background ended. The one served answers them all, and goes on once the check has
    found the damage."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    first = current_version(out).name
    with serving(out) as client:
        answered_by_the_one_before(client)
        index_replaces_it(out, tiny_course, "--full")
        newer = current_version(out)
        saying = checksum_saying(newer, terms_scrambled(newer))
        answered_by_the_one_before(client)
        body = health_until_swapped(client, lambda body: body["status"] == "warn")
        assert (body["status"], body["version"]) == ("warn", first)
        assert body["not_loaded"] == {"version": newer.name, "reason": f"It {saying}."}
        answered_by_the_one_before(client)
        index_replaces_it(out, tiny_course, "--full")
        whole = current_version(out).name
        body = health_until_swapped(client, lambda body: body["version"] == whole)
        assert (body["status"], body["not_loaded"]) == ("ok", None)
        answered_by_the_one_before(client)  # the same course, rebuilt whole
    said = [r for r in caplog.records if saying in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is None


def test_an_incremental_build_keeps_the_checksums_of_the_files_it_links_in(
        tmp_path: Path, tiny_index: Path, tiny_course: Path):
    """The files linked in from the live version keep the checksums its manifest recorded,
    not read again: bytes written over with the file's time put back, which the build does
    not see, are carried into the next version, and found there."""
    course = shutil.copytree(tiny_course, tmp_path / "course")
    glossary = course / "glossary" / "glossary.md"
    glossary.write_text(glossary.read_text(encoding="utf-8").replace(
        "higher values flatten the distribution", "higher values make it flatter"),
        encoding="utf-8")  # a definition: no lesson is written again
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    live = current_version(out)
    terms = whoosh_file(live, "*.trm")
    kept = terms.stat()
    terms_scrambled(live)
    os.utime(terms, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    done = run("index", "--lessons", str(course / "lessons"), "--glossary",
               str(course / "glossary"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "0 of 4 lessons rewritten" in done.stdout
    newer = current_version(out)
    assert newer != live and os.path.samefile(newer / "whoosh" / terms.name, terms)
    done = run("check", "--index", str(out))
    assert done.returncode == 1
    assert checksum_saying(newer, terms) in done.stderr


def test_searches_over_a_terms_file_written_over_are_refused_as_damage(tmp_path: Path,
                                                                       tiny_index: Path):
    """The command line checks no checksums before a search. Over a terms file written over
    (``terms_scrambled``) some searches went on to seek before the file's start and raised
    a bare ``OSError`` ("Invalid argument"), a traceback, where the others were refused
    naming the file."""
    from itertools import product
    from string import ascii_lowercase

    from lessonsearch.errors import IndexDamaged

    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    version = current_version(out)
    terms_scrambled(version)
    refused = 0
    searcher = Searcher.open(out)
    try:
        for first, second in product(ascii_lowercase, repeat=2):
            try:
                searcher.search(first + second)
            except IndexDamaged as exc:
                # the terms file, or the postings it points into at the wrong place
                assert exc.file.startswith("whoosh/")
                refused += 1
    finally:
        searcher.close()
    assert refused
