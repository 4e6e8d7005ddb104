"""A version folder from another release is refused with a sentence, never a traceback."""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from web_fixtures import serving

from lessonsearch.build import build_index
from lessonsearch.errors import IndexIncompatible, IndexIncomplete, IndexUnreadable
from lessonsearch.index_store import MANIFEST, current_version
from lessonsearch.searcher import Searcher


@pytest.fixture
def old_index(tmp_path: Path, tiny_index: Path) -> Path:
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    manifest_path = current_version(out) / MANIFEST
    manifest = json.loads(manifest_path.read_text())
    manifest["format"] = 1
    manifest_path.write_text(json.dumps(manifest))
    return out


def test_an_index_of_another_format_is_refused_with_what_to_do(old_index: Path):
    with pytest.raises(IndexIncompatible, match="lessonsearch index --full"):
        Searcher.open(old_index)
    commands_refuse(old_index, "built by another version")


def commands_refuse(index_dir: Path, saying: str) -> None:
    """``search`` and ``coverage`` exit 1 with a sentence ``saying`` it, and no traceback.
    Asked for JSON, every command that prints it prints the sentence as ``{"error": …}`` on
    stdout, where a script reads it, and still on stderr, where a person sees it."""
    for command in (["search", "cache"], ["coverage"]):
        done = subprocess.run([sys.executable, "-m", "lessonsearch.cli", *command,
                               "--index", str(index_dir)], capture_output=True, text=True)
        assert done.returncode == 1, command
        assert saying in done.stderr and "Traceback" not in done.stderr
        assert done.stdout == "", command
    for command in (["search", "cache", "--json"], ["term", "cache", "--json"],
                    ["terms", "--json"], ["coverage", "--format", "json"]):
        done = subprocess.run([sys.executable, "-m", "lessonsearch.cli", *command,
                               "--index", str(index_dir)], capture_output=True, text=True)
        assert done.returncode == 1, command
        sentence = json.loads(done.stdout)["error"]
        assert saying in sentence and "lessonsearch index --full" in sentence, command
        assert done.stderr == f"lessonsearch: {sentence}\n", command


def test_the_next_build_replaces_it_without_reusing_anything(old_index: Path, tiny_course: Path):
    report = build_index(tiny_course / "lessons", tiny_course / "glossary", old_index)
    assert report.rewritten == report.lessons
    searcher = Searcher.open(old_index)
    try:
        assert searcher.search("cache").total > 0
    finally:
        searcher.close()


def test_a_corrected_typo_still_brings_the_terms_card(tiny_index: Path):
    searcher = Searcher.open(tiny_index)
    try:
        found = searcher.search("temprature")
    finally:
        searcher.close()
    assert found.suggestion == "temperature"
    assert [t.term for t in found.terms] == ["temperature"]


def test_the_server_says_so_too_without_naming_its_folder(old_index: Path):
    """Not "Index not built", which sends the editor to a plain build that would find the
    index there: the API and the health check say to rebuild it in full; the pages tell
    readers to come back, not what to run."""
    with serving(old_index) as client:
        for url in ("/api/search?q=cache", "/healthz", "/api/terms", "/search?q=cache",
                    "/glossary"):
            got = client.get(url)
            assert got.status_code == 503, url
            said = (got.get_json()["error"] if got.is_json
                    else html.unescape(got.get_data(as_text=True)))
            assert ("The index was built by another version of lessonsearch. Rebuild it on "
                    "the server: lessonsearch index --full" in said) == got.is_json, url
            assert ("Search is not available at the moment." in said) != got.is_json, url
            assert "Index not built" not in said and str(old_index) not in said, url
            assert got.headers["Retry-After"]


@pytest.mark.parametrize("damage", ['{"format": 17,', "[]", ""])
def test_a_damaged_manifest_is_refused_with_what_to_do(tmp_path: Path, tiny_index: Path,
                                                         damage: str):
    """A copy cut short (an rsync stopped half way) says to rebuild, on the CLI and the
    server, never a traceback or a 500."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    (current_version(out) / MANIFEST).write_text(damage)
    with pytest.raises(IndexUnreadable, match="lessonsearch index --full"):
        Searcher.open(out)
    commands_refuse(out, "cannot be read")
    with serving(out) as client:
        for url in ("/api/search?q=cache", "/healthz"):
            got = client.get(url)
            assert got.status_code == 503, url
            said = got.get_json()["error"]
            assert ("The index cannot be read: its manifest is damaged. Rebuild it on the "
                    "server: lessonsearch index --full") in said, url
            assert str(out) not in said, url
        got = client.get("/search?q=cache")
        assert got.status_code == 503
        assert "Search is not available at the moment." in html.unescape(got.get_data(as_text=True))


@pytest.mark.parametrize(("part", "named"), [
    ("whoosh", "folder whoosh/ is missing"),
    ("glossary.sqlite", "file glossary.sqlite is missing")])
def test_a_version_missing_a_part_is_refused_with_what_to_do(tmp_path: Path, tiny_index: Path,
                                                              part: str, named: str):
    """A copy that left out the Whoosh folder gave a traceback, even with --json; one that
    left out the glossary file answered every term as unknown, with a healthy /healthz."""
    out = tmp_path / "index"
    shutil.copytree(tiny_index, out, symlinks=True)
    missing = current_version(out) / part
    shutil.rmtree(missing) if missing.is_dir() else missing.unlink()
    with pytest.raises(IndexIncomplete, match="lessonsearch index --full"):
        Searcher.open(out)
    saying = f"cannot be read: its {named}"
    for command in (["search", "cache", "--json"], ["term", "cache", "--json"],
                    ["terms", "--json"]):
        done = subprocess.run([sys.executable, "-m", "lessonsearch.cli", *command,
                               "--index", str(out)], capture_output=True, text=True)
        assert done.returncode == 1, command
        assert saying in json.loads(done.stdout)["error"], command
        assert "Traceback" not in done.stderr, command
    with serving(out) as client:
        for url in ("/api/search?q=cache", "/healthz", "/api/terms"):
            got = client.get(url)
            assert got.status_code == 503, url
            assert (f"The index {saying}. Rebuild it on the server: lessonsearch index --full"
                    == got.get_json()["error"])
