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
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from web_fixtures import serving

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


def damaged_copy(tiny_index: Path, tmp_path: Path, part: str,
                 damage: Callable[[Path], None]) -> Path:
    """A copy of the tiny index with ``damage`` done to ``part`` of its live version."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    damage(current_version(out) / part)
    return out


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lessonsearch.cli", *args],
                          capture_output=True, text=True)


def commands_refuse(index_dir: Path, saying: str) -> None:
    """Every command that reads the index exits 1 with the sentence, which says to rebuild;
    with ``--json`` it is the ``error`` of the body on stdout too. No traceback."""
    for command in (["search", "cache"], ["term", "temperature"], ["terms"], ["coverage"]):
        done = run(*command, "--index", str(index_dir))
        assert done.returncode == 1, command
        assert "Traceback" not in done.stderr, command
        assert saying in done.stderr and "lessonsearch index --full" in done.stderr, command
    done = run("search", "cache", "--json", "--index", str(index_dir))
    assert done.returncode == 1
    assert saying in json.loads(done.stdout)["error"]


def server_refuses(index_dir: Path, saying: str) -> None:
    """With no other version to serve, every route that reads the index answers 503 with the
    sentence (the health check too: it is how an operator learns which file), no path."""
    with serving(index_dir) as client:
        for url in ("/healthz", "/api/search?q=cache", "/api/terms", "/search?q=cache",
                    "/glossary"):
            got = client.get(url)
            assert got.status_code == 503, url
            said = (got.get_json()["error"] if got.is_json
                    else html.unescape(got.get_data(as_text=True)))
            assert f"The index {saying}. Rebuild it on the server: lessonsearch index --full" \
                in said, url
            assert str(index_dir) not in said, url


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


# --- The glossary file ------------------------------------------------------------------------

GLOSSARY_DAMAGE = [cut_short, overwritten, emptied]
GLOSSARY_SAYS = "cannot be read: its glossary file (glossary.sqlite) is damaged"


@pytest.mark.parametrize("damage", GLOSSARY_DAMAGE)
def test_a_damaged_glossary_file_is_refused_with_what_to_do(tmp_path: Path, tiny_index: Path,
                                                              damage):
    """It gave SQLite's traceback ("database disk image is malformed", "no such table") on
    the CLI, and a 500 on every route of a server with no other version, /healthz too."""
    out = damaged_copy(tiny_index, tmp_path, "glossary.sqlite", damage)
    commands_refuse(out, GLOSSARY_SAYS)
    server_refuses(out, GLOSSARY_SAYS)


@pytest.mark.parametrize("full", [False, True], ids=["incremental", "full"])
@pytest.mark.parametrize("damage", GLOSSARY_DAMAGE)
def test_any_build_replaces_a_version_whose_glossary_file_is_damaged(
        tmp_path: Path, tiny_index: Path, tiny_course: Path, damage, full: bool):
    """Every build died reading the live version's glossary file (the build cache's patch of
    it, the broken anchors it listed), ``--full`` too, so nothing could replace it. What a
    build takes from the live version it now does without, saying so in one line."""
    out = damaged_copy(tiny_index, tmp_path, "glossary.sqlite", damage)
    done = index_replaces_it(out, tiny_course, *(["--full"] if full else []))
    notes = [line for line in done.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) <= 1  # none when what it read of the file was there (an emptied one)
    assert all("its glossary file (glossary.sqlite) is damaged" in note for note in notes)


def test_healthz_names_the_damaged_file_while_the_version_before_serves(
        tmp_path: Path, tiny_index: Path, tiny_course: Path):
    """The reason was the exception's class ("It could not be opened (DatabaseError)")."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    first = current_version(out).name
    index_replaces_it(out, tiny_course, "--full")
    newer = current_version(out)
    cut_short(newer / "glossary.sqlite")
    with serving(out) as client:
        body = client.get("/healthz").get_json()
        assert (body["status"], body["version"]) == ("warn", first)
        assert body["not_loaded"] == {"version": newer.name,
                                      "reason": f"It {GLOSSARY_SAYS}."}
        assert client.get("/api/search?q=cache").get_json()["total"] > 0


def test_a_build_over_a_manifest_that_is_no_object_publishes(tmp_path: Path,
                                                             tiny_index: Path,
                                                             tiny_course: Path):
    """A manifest of ``[]`` was refused by ``search`` with the sentence to rebuild, but the
    rebuild died (AttributeError, reading the anchors the live version published)."""
    out = damaged_copy(tiny_index, tmp_path, "manifest.json",
                       lambda path: path.write_text("[]"))
    done = index_replaces_it(out, tiny_course)
    assert "note: The live version" in done.stderr
    assert "cannot be read: its manifest is damaged; nothing of it is reused" in done.stderr
